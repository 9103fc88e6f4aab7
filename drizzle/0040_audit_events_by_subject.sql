-- The organisation's Activity page (server/domain/activity) reads an organisation's events of a few subject types, newest
-- first, and counts them: (organisation_id, subject_type, created_at) serves that and, like the index it replaces
-- (organisation_id, created_at, which no query ordered by), the organisation's cascade; the same number of indexes to write.
DROP INDEX "audit_events_org_idx";--> statement-breakpoint
CREATE INDEX "audit_events_org_subject_idx" ON "audit_events" USING btree ("organisation_id","subject_type","created_at");