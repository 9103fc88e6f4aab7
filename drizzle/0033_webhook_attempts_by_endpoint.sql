-- Attempts by endpoint and time (bench:dashboards): the endpoints dashboard's 24-hour figures and newest attempt and
-- the endpoint page's chart joined every retained delivery of the workspace's endpoints to its attempts — at a
-- million deliveries, seconds a page view. Each attempt now carries its delivery's endpoint, filled in here for the
-- attempts already stored (a delivery's endpoint never changes), and an index leads with it, by time. It takes the
-- place of the key by id, which nothing looked attempts up by (an attempt is found through its delivery): the
-- attempt log keeps two indexes, and its appends cost what they did (bench:peers; as the key (endpoint, started at,
-- id) the wider entries cost ~6 % of the drain). An attempt whose delivery is gone has no endpoint: none should
-- exist (a trigger deletes a delivery's attempts with it, migration 0028), and no page could show one; it is removed.
ALTER TABLE "webhook_attempts" ADD COLUMN "endpoint_id" text;--> statement-breakpoint
UPDATE "webhook_attempts" a SET "endpoint_id" = d."endpoint_id" FROM "webhook_deliveries" d WHERE d."id" = a."delivery_id";--> statement-breakpoint
DELETE FROM "webhook_attempts" WHERE "endpoint_id" IS NULL;--> statement-breakpoint
ALTER TABLE "webhook_attempts" ALTER COLUMN "endpoint_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_attempts" DROP CONSTRAINT "webhook_attempts_pkey";--> statement-breakpoint
CREATE INDEX "webhook_attempts_endpoint_idx" ON "webhook_attempts" USING btree ("endpoint_id","started_at");
