-- What /api/metrics counts, kept by statement triggers instead of read from every retained row at each scrape
-- (schema: webhook_tallies; 428 ms a scrape at 2,000,000 deliveries before, bench:dashboards). Each statement that
-- changes what is counted appends ONE row with its changes, in its own transaction: appends never wait on each
-- other (no shared counter row to lock); the fold-webhook-tallies job folds them into one row.
CREATE TABLE "webhook_tallies" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "webhook_tallies_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"delivered" bigint DEFAULT 0 NOT NULL,
	"exhausted" bigint DEFAULT 0 NOT NULL,
	"attempts" bigint DEFAULT 0 NOT NULL,
	"le_50ms" bigint DEFAULT 0 NOT NULL,
	"le_100ms" bigint DEFAULT 0 NOT NULL,
	"le_250ms" bigint DEFAULT 0 NOT NULL,
	"le_500ms" bigint DEFAULT 0 NOT NULL,
	"le_1s" bigint DEFAULT 0 NOT NULL,
	"le_2500ms" bigint DEFAULT 0 NOT NULL,
	"le_5s" bigint DEFAULT 0 NOT NULL,
	"le_10s" bigint DEFAULT 0 NOT NULL,
	"duration_ms" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- Stored deliveries DELIVERED and EXHAUSTED: +1 for each row that is in the status after the statement, -1 for each
-- that was before it (inserted, deleted — retention, an endpoint's or an event's deletion —, or moved by an update:
-- an outcome, a pause, a replay). A statement that changes neither count appends nothing.
CREATE FUNCTION webhook_tallies_of_deliveries() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  d bigint := 0;
  x bigint := 0;
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    SELECT d + count(*) FILTER (WHERE status = 'DELIVERED'), x + count(*) FILTER (WHERE status = 'EXHAUSTED') INTO d, x FROM new_rows;
  END IF;
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    SELECT d - count(*) FILTER (WHERE status = 'DELIVERED'), x - count(*) FILTER (WHERE status = 'EXHAUSTED') INTO d, x FROM old_rows;
  END IF;
  IF d <> 0 OR x <> 0 THEN
    INSERT INTO webhook_tallies (delivered, exhausted) VALUES (d, x);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER webhook_deliveries_tally_insert AFTER INSERT ON webhook_deliveries REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION webhook_tallies_of_deliveries();
--> statement-breakpoint
CREATE TRIGGER webhook_deliveries_tally_update AFTER UPDATE ON webhook_deliveries REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION webhook_tallies_of_deliveries();
--> statement-breakpoint
CREATE TRIGGER webhook_deliveries_tally_delete AFTER DELETE ON webhook_deliveries REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION webhook_tallies_of_deliveries();
--> statement-breakpoint
-- TRUNCATE fires no delete trigger: the stored deliveries' counts go back to 0 (the attempts' histogram stays).
CREATE FUNCTION webhook_tallies_truncated_deliveries() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO webhook_tallies (delivered, exhausted)
  SELECT -coalesce(sum(delivered), 0), -coalesce(sum(exhausted), 0) FROM webhook_tallies
  HAVING coalesce(sum(delivered), 0) <> 0 OR coalesce(sum(exhausted), 0) <> 0;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER webhook_deliveries_tally_truncate AFTER TRUNCATE ON webhook_deliveries
  FOR EACH STATEMENT EXECUTE FUNCTION webhook_tallies_truncated_deliveries();
--> statement-breakpoint
-- Every attempt with a duration, into the cumulative histogram (the buckets of DURATION_BUCKETS_SECONDS,
-- attempt-histogram.ts). Only inserts count: an attempt removed later stays counted, so no series goes down.
CREATE FUNCTION webhook_tallies_of_attempts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO webhook_tallies (attempts, le_50ms, le_100ms, le_250ms, le_500ms, le_1s, le_2500ms, le_5s, le_10s, duration_ms)
  SELECT count(*), count(*) FILTER (WHERE duration_ms <= 50), count(*) FILTER (WHERE duration_ms <= 100),
    count(*) FILTER (WHERE duration_ms <= 250), count(*) FILTER (WHERE duration_ms <= 500),
    count(*) FILTER (WHERE duration_ms <= 1000), count(*) FILTER (WHERE duration_ms <= 2500),
    count(*) FILTER (WHERE duration_ms <= 5000), count(*) FILTER (WHERE duration_ms <= 10000), sum(duration_ms)
  FROM new_rows WHERE duration_ms IS NOT NULL
  HAVING count(*) > 0;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER webhook_attempts_tally_insert AFTER INSERT ON webhook_attempts REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION webhook_tallies_of_attempts();
--> statement-breakpoint
-- What exists already, after the triggers (the migration runs in one transaction; creating them waited for and
-- holds off writers, so nothing is counted twice or missed): the stored deliveries, the stored attempts and
-- those already removed, which the table this replaces kept by series.
INSERT INTO webhook_tallies (delivered, exhausted)
SELECT count(*) FILTER (WHERE status = 'DELIVERED'), count(*) FILTER (WHERE status = 'EXHAUSTED') FROM webhook_deliveries;
--> statement-breakpoint
INSERT INTO webhook_tallies (attempts, le_50ms, le_100ms, le_250ms, le_500ms, le_1s, le_2500ms, le_5s, le_10s, duration_ms)
SELECT count(*), count(*) FILTER (WHERE duration_ms <= 50), count(*) FILTER (WHERE duration_ms <= 100),
  count(*) FILTER (WHERE duration_ms <= 250), count(*) FILTER (WHERE duration_ms <= 500),
  count(*) FILTER (WHERE duration_ms <= 1000), count(*) FILTER (WHERE duration_ms <= 2500),
  count(*) FILTER (WHERE duration_ms <= 5000), count(*) FILTER (WHERE duration_ms <= 10000), coalesce(sum(duration_ms), 0)
FROM webhook_attempts WHERE duration_ms IS NOT NULL;
--> statement-breakpoint
INSERT INTO webhook_tallies (attempts, le_50ms, le_100ms, le_250ms, le_500ms, le_1s, le_2500ms, le_5s, le_10s, duration_ms)
SELECT coalesce(sum(value) FILTER (WHERE series = '+Inf'), 0), coalesce(sum(value) FILTER (WHERE series = '0.05'), 0),
  coalesce(sum(value) FILTER (WHERE series = '0.1'), 0), coalesce(sum(value) FILTER (WHERE series = '0.25'), 0),
  coalesce(sum(value) FILTER (WHERE series = '0.5'), 0), coalesce(sum(value) FILTER (WHERE series = '1'), 0),
  coalesce(sum(value) FILTER (WHERE series = '2.5'), 0), coalesce(sum(value) FILTER (WHERE series = '5'), 0),
  coalesce(sum(value) FILTER (WHERE series = '10'), 0), coalesce(sum(value) FILTER (WHERE series = 'sum_ms'), 0)
FROM webhook_attempt_histogram_base;
--> statement-breakpoint
DROP TABLE "webhook_attempt_histogram_base" CASCADE;
