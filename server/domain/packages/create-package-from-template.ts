import { and, eq, getTableColumns, sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { rowsFromJson } from "@/server/db/json-rows";
import {
  documents,
  organisations,
  packageFields,
  packages,
  recipientSessions,
  signingGroupMembers,
  templateFields,
  templateRoles,
  templates,
} from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { assertCan } from "@/server/domain/access/gates";
import { roleBlockers } from "@/server/domain/templates/find-activation-blockers";
import { isUniqueViolation } from "@/server/domain/organisation/unique-violation";
import { withEvents } from "@/server/domain/transaction";
import { now } from "@/server/lib/clock";
import { errors, type TErrorDetails } from "@/server/lib/errors";
import { newId } from "@/server/lib/ids";
import { checkRecipientLimit } from "./assert-recipient-limit";
import { auditChange } from "@/server/domain/audit/audit-change";
import { findByExternalId } from "./find-by-external-id";
import { performSend } from "./perform-send";
import { toPackageView } from "./package-view";
import { resolveMetadata } from "./resolve-metadata";
import type { TCreateFromTemplate, TPackage } from "./schemas";
import { authenticationColumns, resolveRoleAuthentication } from "./recipient-authentication";

export type TCreatedPackage = { created: boolean; package: TPackage };

function throwIfAny(details: TErrorDetails): void {
  if (Object.keys(details).length > 0) throw errors.validation(details);
}

type TJsonRows = Record<string, unknown>[] | null;

/**
 * The template in the actor's workspace (404 otherwise, as findTemplate) with everything a package copies from
 * it — its roles in order, its documents in order, its fields — and the organisation's recipient limit, in ONE
 * statement (issue 26: it was five).
 */
async function readTemplate(tx: Db, actor: TActor, templateId: string) {
  // Written qualified: in a one-table select drizzle writes its columns bare, which inside the subqueries would
  // name the subquery's own columns.
  const ownId = sql`${templates}.${sql.identifier(templates.id.name)}`;
  const [row] = await tx
    .select({
      ...getTableColumns(templates),
      roles: sql<TJsonRows>`(select json_agg(r order by r.position) from ${templateRoles} r where r.template_id = ${ownId})`,
      documents: sql<TJsonRows>`(select json_agg(d order by d.position) from ${documents} d where d.template_id = ${ownId})`,
      fields: sql<TJsonRows>`(select json_agg(f) from ${templateFields} f where f.template_id = ${ownId})`,
      maxRecipients: sql<number | null>`(select o.max_recipients_per_package from ${organisations} o where o.id = ${actor.organisation.id})`,
      emptyGroupRoles: sql<string[] | null>`(select json_agg(r.name order by r.position) from ${templateRoles} r where r.template_id = ${ownId}
        and r.signing_group_id is not null and not exists (select 1 from ${signingGroupMembers} m where m.group_id = r.signing_group_id))`,
    })
    .from(templates)
    .where(and(eq(templates.id, templateId), eq(templates.workspaceId, actor.workspace.id)));
  if (!row) throw errors.notFound("Template");
  const { roles, documents: docs, fields, maxRecipients, emptyGroupRoles, ...template } = row;
  return {
    template,
    roles: rowsFromJson(templateRoles, roles),
    documents: rowsFromJson(documents, docs),
    fields: rowsFromJson(templateFields, fields),
    maxRecipients,
    emptyGroupRoles: emptyGroupRoles ?? [],
  };
}

async function build(tx: Db, actor: TActor, input: TCreateFromTemplate): Promise<TPackage> {
  const read = await readTemplate(tx, actor, input.templateId);
  const { template, roles } = read;
  if (template.status !== "ACTIVE") throw errors.validation({ templateId: [`The template is ${template.status}; only ACTIVE templates make packages`] });
  // An ACTIVE template keeps what activation checked (guardActiveTemplate), but one activated before the
  // signature-field rule may lack it: such a package would have a signer with nothing to sign. (A document still
  // uploading is send's 409, as for a package built by hand.)
  // Likewise a role whose signing group has no members (assigned, or emptied, before that was refused): nobody
  // could fill it from the group.
  const blockers = [...roleBlockers(read), ...read.emptyGroupRoles.map((name) => `Give the role “${name}” a signing group with members, or none`)];
  if (blockers.length > 0) {
    throw errors.validation({ templateId: [`The template cannot make packages until it is set back to Draft and fixed: ${blockers.join("; ")}`] });
  }

  // Recipients: one per role, by roleIndex (the role's position).
  const details: TErrorDetails = {};
  const byRole = new Map<number, (typeof input.recipients)[number]>();
  input.recipients.forEach((r, i) => {
    if (!roles.some((role) => role.position === r.roleIndex)) {
      details[`recipients.${i}.roleIndex`] = [`Unknown roleIndex: the template's roles are 0 to ${roles.length - 1}`];
    } else if (byRole.has(r.roleIndex)) details[`recipients.${i}.roleIndex`] = ["This role already has a recipient"];
    else byRole.set(r.roleIndex, r);
  });
  // Each recipient's authentication: their own, else their role's preset (an ACCESS_CODE role needs the code).
  const authByRole = new Map<number, Awaited<ReturnType<typeof authenticationColumns>>>();
  for (const [i, r] of input.recipients.entries()) {
    const role = roles.find((x) => x.position === r.roleIndex);
    if (!role || byRole.get(r.roleIndex) !== r) continue;
    const authentication = resolveRoleAuthentication(r.authentication, role.authMethod, `recipients.${i}`, details);
    authByRole.set(r.roleIndex, await authenticationColumns(authentication, r.identity));
  }
  const missing = roles.filter((role) => !byRole.has(role.position));
  if (missing.length > 0 && !details.recipients) {
    details.recipients = missing.map((role) => `Role ${role.position} (${role.name}) needs a recipient`);
  }
  const mergeKeys = new Set(template.mergeFields.map((f) => f.key));
  for (const key of Object.keys(input.mergeFields ?? {})) {
    if (!mergeKeys.has(key)) details[`mergeFields.${key}`] = ["Unknown merge field"];
  }
  const questionKeys = new Set(template.questions.map((q) => q.key));
  for (const key of Object.keys(input.answers ?? {})) {
    if (!questionKeys.has(key)) details[`answers.${key}`] = ["Unknown sender question"];
  }
  throwIfAny(details);
  const metadata = await resolveMetadata(tx, actor.workspace.id, template.id, input.metadata);
  checkRecipientLimit(read.maxRecipients, roles.length);

  const mergeValues: Record<string, string> = {};
  for (const f of template.mergeFields) {
    const value = input.mergeFields?.[f.key] ?? f.defaultValue ?? null;
    if (value !== null && value !== "") mergeValues[f.key] = value;
  }
  const answers = Object.fromEntries(Object.entries(input.answers ?? {}).filter(([, v]) => v.trim() !== ""));

  const at = now();
  const [pkg] = await tx
    .insert(packages)
    .values({
      id: newId("pkg"),
      organisationId: actor.organisation.id,
      workspaceId: actor.workspace.id,
      templateId: template.id,
      title: input.title,
      externalId: input.externalId ?? null,
      metadata,
      ownerUserId: actor.user.id,
      createdByApiKeyId: actor.apiKey?.id ?? null,
      sequential: input.sequential ?? true,
      message: input.message ?? null,
      mergeValues,
      questions: template.questions,
      answers,
      reminders: input.reminders ?? null,
      expiresAt: input.expiresAt ?? null,
      createdAt: at,
      updatedAt: at,
    })
    .returning();

  // Documents: new rows pointing at the same stored files (originals are never modified).
  const templateDocs = read.documents;
  const docIds = new Map<string, string>();
  let docs: (typeof documents.$inferSelect)[] = [];
  if (templateDocs.length > 0) {
    docs = await tx
      .insert(documents)
      .values(
        templateDocs.map((d) => {
          const id = newId("doc");
          docIds.set(d.id, id);
          return {
            id,
            organisationId: d.organisationId,
            workspaceId: d.workspaceId,
            templateId: null,
            packageId: pkg!.id,
            position: d.position,
            name: d.name,
            contentType: d.contentType,
            fileSize: d.fileSize,
            uploadState: d.uploadState,
            storageKey: d.storageKey,
            sha256: d.sha256,
            pageCount: d.pageCount,
            pageSizes: d.pageSizes,
            sourceStorageKey: d.sourceStorageKey,
            sourceSha256: d.sourceSha256,
            libraryDocumentId: d.libraryDocumentId,
            uploadedAt: d.uploadedAt,
            createdAt: at,
            updatedAt: at,
          };
        }),
      )
      .returning();
  }

  // One session per role, in role order.
  const sessionByRole = new Map<string, string>();
  const sessions = await tx
    .insert(recipientSessions)
    .values(
      roles.map((role, position) => {
        const r = byRole.get(role.position)!;
        const id = newId("ses");
        sessionByRole.set(role.id, id);
        return {
          id,
          packageId: pkg!.id,
          position,
          roleIndex: role.position,
          roleName: role.name,
          email: r.email,
          name: r.name ?? null,
          signingGroupId: role.signingGroupId,
          ...authByRole.get(role.position),
          createdAt: at,
          updatedAt: at,
        };
      }),
    )
    .returning();

  // Fields, for their role's session; text fields bound to a merge field start with its value.
  const fields = read.fields;
  const rows = fields.flatMap((f) => {
    const documentId = docIds.get(f.documentId);
    const sessionId = sessionByRole.get(f.roleId);
    if (!documentId || !sessionId) return [];
    const merged = f.type === "text" && f.mergeFieldKey ? (mergeValues[f.mergeFieldKey] ?? null) : null;
    return [
      {
        id: newId("pfl"),
        packageId: pkg!.id,
        documentId,
        sessionId,
        type: f.type,
        page: f.page,
        x: f.x,
        y: f.y,
        width: f.width,
        height: f.height,
        required: f.required,
        label: f.label,
        mergeFieldKey: f.mergeFieldKey,
        value: merged,
        valueKind: merged === null ? null : ("text" as const),
        valueSetAt: merged === null ? null : at,
        createdAt: at,
      },
    ];
  });
  if (rows.length > 0) await tx.insert(packageFields).values(rows);
  await auditChange(tx, actor, pkg!, "package.created", { title: pkg!.title, templateId: template.id, recipients: roles.length });

  if (input.status === "sent" || input.sendAt) {
    assertCan(actor, "canSendPackages");
    return performSend(tx, actor, pkg!, input.sendAt, (o) => toPackageView(o.package, o.sessions, o.documents), { documents: docs, sessions });
  }
  // The view from the rows the inserts returned (no re-read, issue 26); a new package has no evidence.
  return toPackageView(pkg!, sessions, docs);
}

/**
 * A package from an ACTIVE template (a copy: later template edits do not change it), optionally sent at once
 * (`status: "sent"`) or scheduled (`sendAt`) in the SAME transaction — refused send, nothing created.
 * `externalId`: a package the actor can see answers `{ created: false }` (200) without acting; one it cannot
 * see is 409. Two concurrent calls with one externalId: the unique index lets one insert; the other's
 * violation is caught and the winner re-read, so it answers 200 with the winner's package.
 */
export async function createPackageFromTemplate(db: Db, actor: TActor, input: TCreateFromTemplate): Promise<TCreatedPackage> {
  if (input.externalId) {
    const existing = await findByExternalId(db, actor, input.externalId);
    if (existing) return { created: false, package: existing };
  }
  try {
    return { created: true, package: await withEvents(db, (tx) => build(tx, actor, input)) };
  } catch (err) {
    if (input.externalId && isUniqueViolation(err)) {
      const existing = await findByExternalId(db, actor, input.externalId);
      if (existing) return { created: false, package: existing };
      throw errors.conflict("externalId is already used by another package");
    }
    throw err;
  }
}
