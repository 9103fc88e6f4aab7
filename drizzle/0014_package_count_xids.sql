-- When a workspace's list changed, for the counts of searches (server/domain/packages/search-count-cache.ts):
-- each delta carries its writer's transaction id, each counter row the id of the fold that last wrote it.
-- The rows that exist already get this migration's id, so a count taken before it is no longer trusted.
ALTER TABLE "package_count_deltas" ADD COLUMN "xid" "xid8" DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
ALTER TABLE "package_counts" ADD COLUMN "folded_xid" "xid8" DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
-- Updates now append a delta for every bucket a package left or entered, and for a renamed package (its title
-- decides which searches it matches), even when the sums cancel: one statement that moves one package from
-- IN_PROGRESS to COMPLETED and another back changes no total, but may change the count of a search among the
-- IN_PROGRESS packages. A delta of 0 adds nothing to a total; it says "changed here, in this transaction".
-- An update that changes none of these columns (an updated_at bump, a note) still appends nothing.
CREATE OR REPLACE FUNCTION package_count_deltas_append() RETURNS trigger LANGUAGE plpgsql AS $$
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
      SELECT o.workspace_id, o.status, o.first_viewed_at IS NOT NULL AS viewed, -1 AS d
      FROM old_rows o JOIN new_rows n ON n.id = o.id
      WHERE o.deleted_at IS NULL
        AND (o.workspace_id, o.status, o.first_viewed_at IS NOT NULL, n.deleted_at IS NULL, o.title)
            IS DISTINCT FROM (n.workspace_id, n.status, n.first_viewed_at IS NOT NULL, true, n.title)
      UNION ALL
      SELECT n.workspace_id, n.status, n.first_viewed_at IS NOT NULL AS viewed, 1 AS d
      FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE n.deleted_at IS NULL
        AND (n.workspace_id, n.status, n.first_viewed_at IS NOT NULL, o.deleted_at IS NULL, n.title)
            IS DISTINCT FROM (o.workspace_id, o.status, o.first_viewed_at IS NOT NULL, true, o.title)
    ) changes GROUP BY 1, 2, 3;
  END IF;
  RETURN NULL;
END
$$;
