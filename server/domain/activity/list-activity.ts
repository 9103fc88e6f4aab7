/**
 * The organisation's activity for its owner: the audit trail's administrative events — members, roles, API keys,
 * workspaces, webhook endpoints, signing groups, custom fields, library documents and the organisation's own
 * settings — newest first, each told as one sentence (describe-activity.ts). Packages, templates and their
 * documents have their own timelines and are left out. Every read is bounded by the owner's organisation: the
 * events by `organisation_id`, the names they refer to by the ids those events carry (and the organisation where
 * the table has one).
 */
import { and, count, desc, eq, inArray } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { apiKeys, auditEvents, roles, signingGroups, users, webhookEndpoints, workspaces } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import type { TAuditSubjectType } from "@/server/domain/audit/audit-actions";
import { pageWindow } from "@/server/lib/pagination";
import { describeActivity, type TActivityNames } from "./describe-activity";
import type { TActivityArea, TActivityItem, TActivityList, TActivityQuery } from "./schemas";

/** Which audit subjects each area shows; together, everything the page shows. */
export const AREA_SUBJECTS: Record<TActivityArea, readonly TAuditSubjectType[]> = {
  members: ["member", "role"],
  keys: ["api_key"],
  workspaces: ["workspace"],
  webhooks: ["webhook_endpoint"],
  organisation: ["organisation"],
  content: ["signing_group", "custom_field", "library_document"],
};

const AREA_OF = new Map<string, TActivityArea>(Object.entries(AREA_SUBJECTS).flatMap(([area, subjects]) => subjects.map((s) => [s, area as TActivityArea])));

export async function listActivity(db: Db, actor: TActor, query: TActivityQuery): Promise<TActivityList> {
  const orgId = actor.organisation.id;
  const subjects = query.area ? AREA_SUBJECTS[query.area] : Object.values(AREA_SUBJECTS).flat();
  const where = and(eq(auditEvents.organisationId, orgId), inArray(auditEvents.subjectType, [...subjects]));
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
      area: AREA_OF.get(e.subjectType)!,
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
  const bySubject = (type: TAuditSubjectType) => (e: TEventRow) => (e.subjectType === type ? [e.subjectId] : []);
  const userIds = ids((e) => [e.actorUserId, bySubject("member")(e)[0], e.action === "member.ownership_transferred" ? e.data.from : null]);
  const keyIds = ids((e) => [e.apiKeyId, bySubject("api_key")(e)[0]]);
  const roleIds = ids((e) => [bySubject("role")(e)[0], e.data.roleId]);
  const workspaceIds = ids((e) => [e.workspaceId, bySubject("workspace")(e)[0]]);
  const endpointIds = ids(bySubject("webhook_endpoint"));
  const groupIds = ids(bySubject("signing_group"));
  const read = async <T>(list: string[], query: (list: string[]) => Promise<T[]>): Promise<T[]> => (list.length ? query(list) : []);
  const [u, k, r, w, h, g] = await Promise.all([
    read(userIds, (l) => db.select({ id: users.id, name: users.name, email: users.email }).from(users).where(inArray(users.id, l))),
    read(keyIds, (l) =>
      db
        .select({ id: apiKeys.id, name: apiKeys.name })
        .from(apiKeys)
        .where(and(eq(apiKeys.organisationId, orgId), inArray(apiKeys.id, l))),
    ),
    read(roleIds, (l) =>
      db
        .select({ id: roles.id, name: roles.name })
        .from(roles)
        .where(and(eq(roles.organisationId, orgId), inArray(roles.id, l))),
    ),
    read(workspaceIds, (l) =>
      db
        .select({ id: workspaces.id, name: workspaces.name })
        .from(workspaces)
        .where(and(eq(workspaces.organisationId, orgId), inArray(workspaces.id, l))),
    ),
    read(endpointIds, (l) =>
      db
        .select({ id: webhookEndpoints.id, url: webhookEndpoints.url })
        .from(webhookEndpoints)
        .where(and(eq(webhookEndpoints.organisationId, orgId), inArray(webhookEndpoints.id, l))),
    ),
    read(groupIds, (l) =>
      db
        .select({ id: signingGroups.id, name: signingGroups.name })
        .from(signingGroups)
        .where(and(eq(signingGroups.organisationId, orgId), inArray(signingGroups.id, l))),
    ),
  ]);
  const names: TActivityNames = {
    users: new Map(u.map((x) => [x.id, { name: x.name, email: x.email }])),
    apiKeys: new Map(k.map((x) => [x.id, x.name])),
    roles: new Map(r.map((x) => [x.id, x.name])),
    workspaces: new Map(w.map((x) => [x.id, x.name])),
    endpoints: new Map(h.map((x) => [x.id, x.url])),
    signingGroups: new Map(g.map((x) => [x.id, x.name])),
  };
  // What was deleted since: its name as its creation recorded it.
  const missing = [
    ...keyIds.filter((id) => !names.apiKeys.has(id)),
    ...roleIds.filter((id) => !names.roles.has(id)),
    ...workspaceIds.filter((id) => !names.workspaces.has(id)),
    ...endpointIds.filter((id) => !names.endpoints.has(id)),
    ...groupIds.filter((id) => !names.signingGroups.has(id)),
  ];
  if (missing.length > 0) {
    const created = await db
      .select({ action: auditEvents.action, id: auditEvents.subjectId, data: auditEvents.data })
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.organisationId, orgId),
          inArray(auditEvents.subjectType, CREATION_SUBJECTS),
          inArray(auditEvents.subjectId, missing),
          inArray(auditEvents.action, Object.keys(CREATION)),
        ),
      );
    for (const c of created) {
      const [map, field] = CREATION[c.action]!;
      const value = text(c.data[field]);
      if (c.id && value) names[map].set(c.id, value);
    }
  }
  return names;
}

/** The events that recorded a thing's name when it was made, and where that name goes. */
const CREATION: Record<string, [Exclude<keyof TActivityNames, "users">, string]> = {
  "api_key.created": ["apiKeys", "name"],
  "role.created": ["roles", "name"],
  "workspace.created": ["workspaces", "name"],
  "webhook.endpoint_created": ["endpoints", "url"],
  "signing_group.created": ["signingGroups", "name"],
};
/** Their subjects, so the lookup goes by the trail's (subject_type, subject_id) index. */
const CREATION_SUBJECTS: TAuditSubjectType[] = ["api_key", "role", "workspace", "webhook_endpoint", "signing_group"];
