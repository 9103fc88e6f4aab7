-- The counters behind the packages list's exact totalCount (schema: package_counts, package_count_deltas).
-- Statement-level triggers on packages append, in the writer's own transaction, one delta row per
-- (workspace, status, viewed) bucket a statement changed: +n for rows inserted live, -n for live rows deleted,
-- and for updates the difference between the old and the new rows' buckets (nothing when no bucket changed —
-- a title edit or an updated_at bump appends nothing). A live row is one with deleted_at null, so a soft delete
-- is a -1. Appends never wait on each other; the fold-package-counts job folds them into package_counts.
CREATE FUNCTION package_count_deltas_append() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO package_count_deltas (workspace_id, status, viewed, delta)
    SELECT workspace_id, status, first_viewed_at IS NOT NULL, count(*) FROM new_rows
    WHERE deleted_at IS NULL GROUP BY 1, 2, 3;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO package_count_deltas (workspace_id, status, viewed, delta)
    SELECT workspace_id, status, first_viewed_at IS NOT NULL, -count(*) FROM old_rows
    WHERE deleted_at IS NULL GROUP BY 1, 2, 3;
  ELSE
    INSERT INTO package_count_deltas (workspace_id, status, viewed, delta)
    SELECT workspace_id, status, viewed, sum(d) FROM (
      SELECT workspace_id, status, first_viewed_at IS NOT NULL AS viewed, -1 AS d FROM old_rows WHERE deleted_at IS NULL
      UNION ALL
      SELECT workspace_id, status, first_viewed_at IS NOT NULL AS viewed, 1 AS d FROM new_rows WHERE deleted_at IS NULL
    ) changes GROUP BY 1, 2, 3 HAVING sum(d) <> 0;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER packages_count_insert AFTER INSERT ON packages REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION package_count_deltas_append();
--> statement-breakpoint
CREATE TRIGGER packages_count_update AFTER UPDATE ON packages REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION package_count_deltas_append();
--> statement-breakpoint
CREATE TRIGGER packages_count_delete AFTER DELETE ON packages REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION package_count_deltas_append();
--> statement-breakpoint
-- TRUNCATE fires no delete trigger: it empties the counters too.
CREATE FUNCTION package_counts_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM package_count_deltas;
  DELETE FROM package_counts;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER packages_count_truncate AFTER TRUNCATE ON packages
  FOR EACH STATEMENT EXECUTE FUNCTION package_counts_truncate();
--> statement-breakpoint
-- The packages that exist already (the migrations run in one transaction; the triggers above hold off writers).
INSERT INTO package_counts (workspace_id, status, viewed, n)
SELECT workspace_id, status, first_viewed_at IS NOT NULL, count(*) FROM packages WHERE deleted_at IS NULL GROUP BY 1, 2, 3;
