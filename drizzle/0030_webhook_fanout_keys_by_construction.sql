-- The fan-out's rows without foreign-key checks (issue 22): a fan-out to 100 endpoints inserts 100 deliveries and
-- their 100 queue rows, and the three keys below ran one check query per row — 300 queries, ~75 % of the fan-out's
-- time (bench/README.md). Those rows are only made where the keys hold by construction: the fan-out inserts the
-- event, the deliveries and the queue rows in one statement, and takes the endpoints it selects FOR KEY SHARE
-- (the lock the check took, so an endpoint cannot be deleted before the fan-out commits); a replay puts back in
-- the queue deliveries its update has locked. What the keys' ON DELETE CASCADE did, statement triggers do (as for
-- the attempt log, migration 0028): deleting events or endpoints deletes their deliveries, and deleting
-- deliveries deletes their queue rows, whatever deletes them.
ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "webhook_deliveries_event_id_webhook_events_id_fk";
--> statement-breakpoint
ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "webhook_deliveries_endpoint_id_webhook_endpoints_id_fk";
--> statement-breakpoint
ALTER TABLE "webhook_queue" DROP CONSTRAINT "webhook_queue_delivery_id_webhook_deliveries_id_fk";
--> statement-breakpoint
CREATE FUNCTION webhook_deliveries_follow_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM webhook_deliveries d USING gone_events g WHERE d.event_id = g.id;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER webhook_events_delete_deliveries AFTER DELETE ON webhook_events REFERENCING OLD TABLE AS gone_events
  FOR EACH STATEMENT EXECUTE FUNCTION webhook_deliveries_follow_events();
--> statement-breakpoint
CREATE FUNCTION webhook_deliveries_follow_endpoints() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM webhook_deliveries d USING gone_endpoints g WHERE d.endpoint_id = g.id;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER webhook_endpoints_delete_deliveries AFTER DELETE ON webhook_endpoints REFERENCING OLD TABLE AS gone_endpoints
  FOR EACH STATEMENT EXECUTE FUNCTION webhook_deliveries_follow_endpoints();
--> statement-breakpoint
CREATE FUNCTION webhook_queue_follows_deliveries() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM webhook_queue q USING gone_deliveries g WHERE q.delivery_id = g.id;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER webhook_deliveries_delete_queue AFTER DELETE ON webhook_deliveries REFERENCING OLD TABLE AS gone_deliveries
  FOR EACH STATEMENT EXECUTE FUNCTION webhook_queue_follows_deliveries();
