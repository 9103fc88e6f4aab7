-- The title's trigram index without a pending list (fastupdate off), so the planner prices it by what a search
-- reads: a search's generic plan reads its matches through it (server/domain/packages/list-packages.ts). Set in
-- place rather than rebuilt; what is pending now is moved into the index.
ALTER INDEX "packages_title_trgm_idx" SET (fastupdate = off);--> statement-breakpoint
SELECT gin_clean_pending_list('packages_title_trgm_idx'::regclass);
