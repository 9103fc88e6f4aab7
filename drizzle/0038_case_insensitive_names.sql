-- Role and workspace names are unique per organisation regardless of case ("Sales" and "sales"; docs/decisions/case-insensitive-names.md).
-- An installation may already hold such pairs (workspace names were never checked; roles only by the app, not the index):
-- the oldest of each pair keeps its name, each later one is renamed "<name> (2)", "(3)"… (the first number free in any
-- case, cut to the forms' 100 characters), so this migration cannot fail on existing data. Ids, slugs, keys and
-- members are untouched; the owner sees the new name in Settings and may change it.
DO $$
DECLARE
	r record;
	n integer;
	candidate text;
BEGIN
	FOR r IN
		SELECT x.id, x.organisation_id, x.name FROM "roles" x
		WHERE EXISTS (
			SELECT 1 FROM "roles" y
			WHERE y.organisation_id = x.organisation_id AND lower(y.name) = lower(x.name) AND (y.created_at, y.id) < (x.created_at, x.id)
		)
		ORDER BY x.created_at, x.id
	LOOP
		n := 2;
		LOOP
			candidate := left(r.name, 100 - length(' (' || n || ')')) || ' (' || n || ')';
			EXIT WHEN NOT EXISTS (SELECT 1 FROM "roles" WHERE organisation_id = r.organisation_id AND lower(name) = lower(candidate));
			n := n + 1;
		END LOOP;
		UPDATE "roles" SET name = candidate, updated_at = now() WHERE id = r.id;
	END LOOP;
	FOR r IN
		SELECT x.id, x.organisation_id, x.name FROM "workspaces" x
		WHERE EXISTS (
			SELECT 1 FROM "workspaces" y
			WHERE y.organisation_id = x.organisation_id AND lower(y.name) = lower(x.name) AND (y.created_at, y.id) < (x.created_at, x.id)
		)
		ORDER BY x.created_at, x.id
	LOOP
		n := 2;
		LOOP
			candidate := left(r.name, 100 - length(' (' || n || ')')) || ' (' || n || ')';
			EXIT WHEN NOT EXISTS (SELECT 1 FROM "workspaces" WHERE organisation_id = r.organisation_id AND lower(name) = lower(candidate));
			n := n + 1;
		END LOOP;
		UPDATE "workspaces" SET name = candidate, updated_at = now() WHERE id = r.id;
	END LOOP;
END $$;--> statement-breakpoint
DROP INDEX "roles_org_name_uq";--> statement-breakpoint
CREATE UNIQUE INDEX "roles_org_lower_name_uq" ON "roles" USING btree ("organisation_id",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "workspaces_org_lower_name_uq" ON "workspaces" USING btree ("organisation_id",lower("name"));
