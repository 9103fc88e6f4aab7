/**
 * The organisation's activity for its owner: the audit trail's administrative events — members, roles, API keys,
 * workspaces, webhook endpoints, signing groups, custom fields, library documents and the organisation's own
 * settings — newest first, each told as one sentence (describe-activity.ts). Packages, templates and their
 * documents have their own timelines and are left out. Every read is bounded by the owner's organisation: the
 * events by `organisation_id`, the names they refer to by the ids those events carry (and the organisation where
 * the table has one).
 */
import { and, count, desc, eq, inArray, notInArray, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Db } from "@/server/db/client";
import { apiKeys, auditEvents, roles, signingGroups, users, webhookEndpoints, workspaces } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import type { TAuditAction, TAuditSubjectType } from "@/server/domain/audit/audit-actions";
import { pageWindow } from "@/server/lib/pagination";
import { describeActivity, type TActivityNames } from "./describe-activity";
import type { TActivityArea, TActivityItem, TActivityList, TActivityQuery } from "./schemas";

/** Which audit subjects each area shows; together, everything the page shows. */
export const AREA_SUBJECTS: Record<TActivityArea, readonly TAuditSubjectType[]> = {
  members: ["member", "role"],
  sign_ins: ["member"],
  keys: ["api_key"],
  workspaces: ["workspace"],
  webhooks: ["webhook_endpoint"],
  organisation: ["organisation"],
  content: ["signing_group", "custom_field", "library_document"],
};

/** A member's sign-ins and sessions: their own area, so that they do not bury the changes to members and roles. */
const SIGN_IN_ACTIONS: readonly TAuditAction<"member">[] = [
  "member.signed_in",
  "member.sign_in_failed",
  "member.session_ended",
  "member.other_sessions_ended",
  "member.sessions_ended",
  "member.session_ended_by_owner",
];
const IS_SIGN_IN = new Set<string>(SIGN_IN_ACTIONS);

const AREA_OF = new Map<string, TActivityArea>(
  Object.entries(AREA_SUBJECTS)
    .filter(([area]) => area !== "sign_ins")
    .flatMap(([area, subjects]) => subjects.map((s) => [s, area as TActivityArea])),
);
const areaOf = (e: { subjectType: string; action: string }): TActivityArea => (IS_SIGN_IN.has(e.action) ? "sign_ins" : AREA_OF.get(e.subjectType)!);

/** The events an area shows (all of them without one). */
function inArea(area: TActivityArea | undefined): SQL {
  if (area === "sign_ins") return and(eq(auditEvents.subjectType, "member"), inArray(auditEvents.action, [...SIGN_IN_ACTIONS]))!;
  const subjects = inArray(auditEvents.subjectType, [...(area ? AREA_SUBJECTS[area] : new Set(Object.values(AREA_SUBJECTS).flat()))]);
  return area === "members" ? and(subjects, notInArray(auditEvents.action, [...SIGN_IN_ACTIONS]))! : subjects;
}

export async function listActivity(db: Db, actor: TActor, query: TActivityQuery): Promise<TActivityList> {
  const orgId = actor.organisation.id;
  const where = and(eq(auditEvents.organisationId, orgId), inArea(query.area));
  const { limit, offset } = pageWindow(query);
  const [rows, [total]] = await Promise.all([
    db.select().from(auditEvents).where(where).orderBy(desc(auditEvents.createdAt), desc(auditEvents.id)).limit(limit).offset(offset),
    db.select({ n: count() }).from(auditEvents).where(where),
  ]);
  const names = await namesFor(db, orgId, rows);
  return {
    events: rows.map((e): TActivityItem => ({
      id: e.id,
      createdAt: e.createdAt.toISOString(),
      action: e.action,
      area: areaOf(e),
      summary: describeActivity(e, names),
      actor: actorOf(e, names),
      workspaceName: e.workspaceId ? (names.workspaces.get(e.workspaceId) ?? null) : null,
      clientAddress: e.clientAddress,
    })),
    totalCount: total?.n ?? 0,
    page: query.page,
    pageSize: query.pageSize,
  };
}

type TEventRow = typeof auditEvents.$inferSelect;

function actorOf(e: TEventRow, names: TActivityNames): TActivityItem["actor"] {
  const by = e.data.by;
  if (e.actorUserId) {
    const user = names.users.get(e.actorUserId);
    const key = e.apiKeyId ? names.apiKeys.get(e.apiKeyId) : undefined;
    return { kind: "member", name: user?.name ?? null, email: user?.email ?? null, apiKeyName: key ?? null };
  }
  if (by === "operator") return { kind: "operator", name: null, email: null, apiKeyName: null };
  if (by === "the service") return { kind: "service", name: null, email: null, apiKeyName: null };
  return { kind: "nobody", name: null, email: null, apiKeyName: null };
}

const text = (v: unknown): string | null => (typeof v === "string" && v ? v : null);

type TNamed = Exclude<keyof TActivityNames, "users">;

/**
 * Each kind of named thing the sentences mention: its table (read by id, within the organisation), the subject
 * whose events are about it, and the event that recorded its name when it was made — read for one deleted since.
 */
const NAMED: Record<TNamed, { table: PgTable; id: PgColumn; org: PgColumn; name: PgColumn; subject: TAuditSubjectType; created: string; field: string }> = {
  apiKeys: { table: apiKeys, id: apiKeys.id, org: apiKeys.organisationId, name: apiKeys.name, subject: "api_key", created: "api_key.created", field: "name" },
  roles: { table: roles, id: roles.id, org: roles.organisationId, name: roles.name, subject: "role", created: "role.created", field: "name" },
  workspaces: {
    table: workspaces,
    id: workspaces.id,
    org: workspaces.organisationId,
    name: workspaces.name,
    subject: "workspace",
    created: "workspace.created",
    field: "name",
  },
  endpoints: {
    table: webhookEndpoints,
    id: webhookEndpoints.id,
    org: webhookEndpoints.organisationId,
    name: webhookEndpoints.url,
    subject: "webhook_endpoint",
    created: "webhook.endpoint_created",
    field: "url",
  },
  signingGroups: {
    table: signingGroups,
    id: signingGroups.id,
    org: signingGroups.organisationId,
    name: signingGroups.name,
    subject: "signing_group",
    created: "signing_group.created",
    field: "name",
  },
};
const NAMED_KINDS = Object.keys(NAMED) as TNamed[];

/** The names the page's events refer to, each table read once by the ids the events carry. */
async function namesFor(db: Db, orgId: string, rows: readonly TEventRow[]): Promise<TActivityNames> {
  const ids = (pick: (e: TEventRow) => unknown[]) => [
    ...new Set(
      rows
        .flatMap(pick)
        .map(text)
        .filter((v): v is string => v !== null),
    ),
  ];
  const about = (e: TEventRow, type: TAuditSubjectType) => (e.subjectType === type ? e.subjectId : null);
  const userIds = ids((e) => [e.actorUserId, about(e, "member"), e.action === "member.ownership_transferred" ? e.data.from : null]);
  const idsOf: Record<TNamed, string[]> = {
    apiKeys: ids((e) => [e.apiKeyId, about(e, "api_key")]),
    roles: ids((e) => [about(e, "role"), e.data.roleId]),
    workspaces: ids((e) => [e.workspaceId, about(e, "workspace")]),
    endpoints: ids((e) => [about(e, "webhook_endpoint")]),
    signingGroups: ids((e) => [about(e, "signing_group")]),
  };
  const [u, ...named] = await Promise.all([
    userIds.length ? db.select({ id: users.id, name: users.name, email: users.email }).from(users).where(inArray(users.id, userIds)) : [],
    ...NAMED_KINDS.map(async (kind) => {
      const { table, id, org, name } = NAMED[kind];
      const list = idsOf[kind];
      const found = list.length
        ? await db
            .select({ id, name })
            .from(table)
            .where(and(eq(org, orgId), inArray(id, list)))
        : [];
      return new Map(found.map((x) => [String(x.id), String(x.name)]));
    }),
  ]);
  const names = {
    users: new Map(u.map((x) => [x.id, { name: x.name, email: x.email }])),
    ...Object.fromEntries(NAMED_KINDS.map((kind, i) => [kind, named[i]!])),
  } as TActivityNames;
  // What was deleted since: its name as its creation recorded it.
  const missing = NAMED_KINDS.flatMap((kind) => idsOf[kind].filter((id) => !names[kind].has(id)));
  if (missing.length > 0) {
    const created = await db
      .select({ action: auditEvents.action, id: auditEvents.subjectId, data: auditEvents.data })
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.organisationId, orgId),
          // By the trail's (subject_type, subject_id) index.
          inArray(
            auditEvents.subjectType,
            NAMED_KINDS.map((kind) => NAMED[kind].subject),
          ),
          inArray(auditEvents.subjectId, missing),
          inArray(
            auditEvents.action,
            NAMED_KINDS.map((kind) => NAMED[kind].created),
          ),
        ),
      );
    for (const c of created) {
      const kind = NAMED_KINDS.find((k) => NAMED[k].created === c.action)!;
      const value = text(c.data[NAMED[kind].field]);
      if (c.id && value) names[kind].set(c.id, value);
    }
  }
  return names;
}
