-- Counters of deliveries that reached DELIVERED or EXHAUSTED, ever (for Prometheus' rate(): the stored counts of
-- 0034 go down when retention removes deliveries). Writers of deliveries are held off first, so the counters start
-- exactly from what is stored: the stored counts, summed from the tallies, once the new trigger body is in place.
LOCK TABLE webhook_deliveries IN SHARE ROW EXCLUSIVE MODE;
--> statement-breakpoint
ALTER TABLE "webhook_tallies" ADD COLUMN "delivered_total" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_tallies" ADD COLUMN "exhausted_total" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- An append's id costs a sequence write (and its WAL record) unless the connection holds ids in hand.
ALTER TABLE "webhook_tallies" ALTER COLUMN "id" SET CACHE 100;--> statement-breakpoint
-- As 0034's, and each row that enters a final status (inserted in it, or moved into it by an update: an outcome,
-- a pause) counts once more in its counter; deletions take nothing from the counters.
CREATE OR REPLACE FUNCTION webhook_tallies_of_deliveries() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  d bigint := 0;
  x bigint := 0;
  dt bigint := 0;
  xt bigint := 0;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT count(*) FILTER (WHERE status = 'DELIVERED'), count(*) FILTER (WHERE status = 'EXHAUSTED') INTO d, x FROM new_rows;
    dt := d;
    xt := x;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT -count(*) FILTER (WHERE status = 'DELIVERED'), -count(*) FILTER (WHERE status = 'EXHAUSTED') INTO d, x FROM old_rows;
  ELSE
    -- One pass over both: the final rows after (dt, xt) and the net change (d, x).
    SELECT count(*) FILTER (WHERE after AND status = 'DELIVERED'), count(*) FILTER (WHERE after AND status = 'EXHAUSTED'),
      count(*) FILTER (WHERE status = 'DELIVERED' AND after) - count(*) FILTER (WHERE status = 'DELIVERED' AND NOT after),
      count(*) FILTER (WHERE status = 'EXHAUSTED' AND after) - count(*) FILTER (WHERE status = 'EXHAUSTED' AND NOT after)
    INTO dt, xt, d, x
    FROM (SELECT status, true AS after FROM new_rows UNION ALL SELECT status, false FROM old_rows) rows;
    -- Rows that were in a final status before may have stayed in it: then only the rows that moved into it count
    -- (found by joining the two). An outcome moves rows from PENDING or FAILED only, and skips the join.
    IF d <> dt OR x <> xt THEN
      SELECT count(*) FILTER (WHERE n.status = 'DELIVERED' AND o.status <> 'DELIVERED'),
        count(*) FILTER (WHERE n.status = 'EXHAUSTED' AND o.status <> 'EXHAUSTED')
      INTO dt, xt
      FROM new_rows n JOIN old_rows o ON o.id = n.id;
    END IF;
  END IF;
  IF d <> 0 OR x <> 0 OR dt <> 0 OR xt <> 0 THEN
    INSERT INTO webhook_tallies (delivered, exhausted, delivered_total, exhausted_total) VALUES (d, x, dt, xt);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
INSERT INTO webhook_tallies (delivered_total, exhausted_total)
SELECT coalesce(sum(delivered), 0), coalesce(sum(exhausted), 0) FROM webhook_tallies;
