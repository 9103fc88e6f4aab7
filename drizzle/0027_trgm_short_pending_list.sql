-- The title's trigram index with a short pending list (64 kB instead of 4 MB): the planner prices a GIN index by
-- its pending pages too, and with a long list a search's generic plan read the workspace's whole index instead
-- (server/domain/packages/list-packages.ts, the trigram path). Set in place rather than rebuilt; what is pending
-- now is moved into the index.
ALTER INDEX "packages_title_trgm_idx" SET (gin_pending_list_limit = 64);--> statement-breakpoint
SELECT gin_clean_pending_list('packages_title_trgm_idx'::regclass);
