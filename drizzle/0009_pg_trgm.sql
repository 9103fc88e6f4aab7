-- Trigram matching for the packages list's `search` (a case-insensitive substring of the title): the GIN index
-- packages_title_trgm_idx (next migration) needs the operator class. PGlite loads the contrib module in
-- server/db/client.ts; PostgreSQL needs the contrib package (postgresql-contrib, part of the official images).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
