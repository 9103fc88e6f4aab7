/**
 * Protects deletions from reading whole tables: PostgreSQL does not index a foreign key's referencing column, so
 * for each parent row deleted, the key's ON DELETE (or its check) reads the child table by that column — whole,
 * when no index starts with it. Every foreign key whose parent the app deletes has one (migrations 0031–0032);
 * the keys listed below have none, each for the reason given: their parents are never deleted by the app, or
 * only with their organisation or workspace, or the child table is small by nature. A new key without an index
 * fails here until it gets one or its reason is written down. (Webhook deliveries hold no foreign key; their
 * lookups by event are the retention test's.)
 */
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { queryRows } from "@/server/db/client";
import { useTestDb } from "@/server/test/db";
import { explainPlan, indexLookups, planNodes } from "@/server/test/query-plan";

const t = useTestDb();

/** Users, organisations and workspaces are never deleted by the app (members are removed, not their users). */
const NEVER_DELETED = "the parent is never deleted by the app";
const WITH_ORGANISATION = "read only when its organisation or workspace goes, which the app never deletes";
const SMALL = "a small table (memberships, API keys, custom field definitions, template roles) read by a rare owner's deletion";

const UNINDEXED: Record<string, string> = {
  "api_keys.issued_by_user_id → users": NEVER_DELETED,
  "api_keys.role_id → roles": SMALL,
  "api_keys.workspace_id → workspaces": NEVER_DELETED,
  "custom_field_definitions.organisation_id → organisations": WITH_ORGANISATION,
  "custom_field_definitions.template_id → templates": SMALL,
  "documents.organisation_id → organisations": WITH_ORGANISATION,
  "documents.workspace_id → workspaces": WITH_ORGANISATION,
  "edit_locks.organisation_id → organisations": WITH_ORGANISATION,
  "edit_locks.user_id → users": NEVER_DELETED,
  "embed_links.organisation_id → organisations": WITH_ORGANISATION,
  "embed_links.package_id → packages": "packages are deleted softly (deleted_at), never as rows",
  "embed_links.workspace_id → workspaces": WITH_ORGANISATION,
  "embed_origins.organisation_id → organisations": WITH_ORGANISATION,
  "invites.user_id → users": NEVER_DELETED,
  "library_documents.created_by_user_id → users": NEVER_DELETED,
  "library_documents.organisation_id → organisations": WITH_ORGANISATION,
  "mail_messages.organisation_id → organisations": WITH_ORGANISATION,
  "mail_messages.user_id → users": NEVER_DELETED,
  "memberships.role_id → roles": SMALL,
  "package_evidence.organisation_id → organisations": WITH_ORGANISATION,
  "package_evidence.workspace_id → workspaces": WITH_ORGANISATION,
  "package_shares.shared_by_user_id → users": NEVER_DELETED,
  "packages.organisation_id → organisations": WITH_ORGANISATION,
  "packages.owner_user_id → users": NEVER_DELETED,
  "sealed_file_versions.organisation_id → organisations": WITH_ORGANISATION,
  "sealed_file_versions.package_id → packages": "packages are deleted softly (deleted_at), never as rows",
  "sealed_file_versions.workspace_id → workspaces": WITH_ORGANISATION,
  "sealed_files.organisation_id → organisations": WITH_ORGANISATION,
  "sealed_files.workspace_id → workspaces": WITH_ORGANISATION,
  "signing_groups.organisation_id → organisations": WITH_ORGANISATION,
  "template_roles.signing_group_id → signing_groups": SMALL,
  "templates.created_by_user_id → users": NEVER_DELETED,
  "webhook_endpoints.organisation_id → organisations": WITH_ORGANISATION,
  "webhook_events.organisation_id → organisations": WITH_ORGANISATION,
};

describe("foreign keys and their indexes", () => {
  it("every foreign key's referencing column leads an index, but for the keys listed with their reason", async () => {
    const rows = await queryRows<{ key: string }>(
      t.db,
      sql`select c.conrelid::regclass::text || '.' || a.attname || ' → ' || c.confrelid::regclass::text as key
          from pg_constraint c
          join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
          where c.contype = 'f' and c.connamespace = 'public'::regnamespace
            and not exists (select 1 from pg_index i where i.indrelid = c.conrelid and i.indkey[0] = c.conkey[1])
          order by 1`,
    );
    expect(rows.map((r) => r.key)).toEqual(Object.keys(UNINDEXED).sort());
  });

  it("the keys whose parents the app deletes are served by their index (packages, mail, sessions, template fields)", async () => {
    // With sequential scans priced out, the key's own lookup (as its ON DELETE runs it) looks the children up through
    // the index (its condition on the key's column); without one, it scans the table whole.
    const lookups = {
      packages_template_idx: ["template_id", sql`update packages set template_id = null where template_id = 'tpl_x'`],
      mail_messages_session_idx: ["session_id", sql`update mail_messages set session_id = null where session_id = 'rcs_x'`],
      recipient_sessions_signing_group_idx: ["signing_group_id", sql`update recipient_sessions set signing_group_id = null where signing_group_id = 'sgr_x'`],
      template_fields_role_idx: ["role_id", sql`delete from template_fields where role_id = 'trl_x'`],
    } as const;
    for (const [index, [column, lookup]] of Object.entries(lookups)) {
      const plan = await explainPlan(t.db, lookup, { settings: { enable_seqscan: "off" } });
      expect(indexLookups(plan), index).toEqual([expect.stringMatching(new RegExp(`^${index}: \\(${column} = `))]);
      expect(
        planNodes(plan).filter((n) => n["Node Type"] === "Seq Scan"),
        index,
      ).toEqual([]);
    }
  });
});
