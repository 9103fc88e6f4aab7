import { index, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, id } from "./columns";
import { organisations } from "./organisations";

/** Who did what. `actorUserId` is the signed-in user, or the issuer of the API key that acted. */
export const auditEvents = pgTable(
  "audit_events",
  {
    id: id(),
    organisationId: text("organisation_id")
      .notNull()
      .references(() => organisations.id, { onDelete: "cascade" }),
    workspaceId: text("workspace_id"),
    /** The resource concerned, e.g. `package`, `api_key`, `webhook_endpoint`. */
    subjectType: text("subject_type").notNull(),
    subjectId: text("subject_id"),
    action: text("action").notNull(),
    actorUserId: text("actor_user_id"),
    apiKeyId: text("api_key_id"),
    /** The client's address (the API caller, the member's browser, the recipient). */
    clientAddress: text("client_address"),
    /**
     * Hash chain of a subject's trail: SHA-256 of the previous event's hash and this event's content, so the
     * certificate of completion can print the head and a changed or removed event is detectable.
     */
    previousHash: text("previous_hash"),
    hash: text("hash"),
    data: jsonb("data").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  // By subject: a package's timeline and each chain's head. By organisation and subject type: the Activity page.
  (t) => [
    index("audit_events_subject_idx").on(t.subjectType, t.subjectId, t.createdAt),
    index("audit_events_org_subject_idx").on(t.organisationId, t.subjectType, t.createdAt),
  ],
);

export type TAuditEventRow = typeof auditEvents.$inferSelect;
