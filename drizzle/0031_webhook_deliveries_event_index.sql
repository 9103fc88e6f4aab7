-- Deliveries by their event: retention's check that an old event has no delivery left
-- and the trigger that deletes an event's deliveries with it (migration 0030) read webhook_deliveries by event_id,
-- which no index served since the table's first migration: each batch scanned the whole retained history (~1 s
-- a batch of 1,000 events at a million deliveries; 17-30 ms with this index, bench/README.md). The build holds
-- webhook_deliveries against writes while it runs (~1 s per million deliveries on the two-core machine).
CREATE INDEX "webhook_deliveries_event_idx" ON "webhook_deliveries" USING btree ("event_id");