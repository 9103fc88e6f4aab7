-- The attempt log without a foreign key to its delivery (issue 22): the key's check ran one query per attempt
-- row inside the webhook engine's outcome statement. Every attempt row is written by a statement that updates,
-- and so locks, its delivery row, so the delivery exists when the attempt commits; what the key still did is
-- the cascade, and a statement trigger now does it: deleting deliveries (retention, or an endpoint or an event
-- deleted, which cascade to their deliveries) deletes their attempts in the same transaction.
ALTER TABLE "webhook_attempts" DROP CONSTRAINT "webhook_attempts_delivery_id_webhook_deliveries_id_fk";
--> statement-breakpoint
CREATE FUNCTION webhook_attempts_follow_deliveries() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM webhook_attempts a USING gone_deliveries g WHERE a.delivery_id = g.id;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER webhook_deliveries_delete_attempts AFTER DELETE ON webhook_deliveries REFERENCING OLD TABLE AS gone_deliveries
  FOR EACH STATEMENT EXECUTE FUNCTION webhook_attempts_follow_deliveries();
