import { and, asc, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { documents, templateFields, templateRoles, templates } from "@/server/db/schema";
import { errors } from "@/server/lib/errors";

type TBlockerInputs = {
  documents: { name: string; uploadState: string; contentType: string }[];
  roles: { id: string; name: string; position: number }[];
  fields: { roleId: string; type: string; required: boolean }[];
};

/**
 * Why a template cannot become ACTIVE (or make packages), in words for the sender; empty when it can. It needs
 * at least one uploaded PDF document, no document still uploading or waiting for DOCX conversion (a package
 * would carry a document nobody can sign), at least one role, and a required signature field for every role
 * (a signer with nothing to sign would "sign" and the package be sealed with no signature of theirs).
 */
export function activationBlockers({ documents: docs, roles, fields }: TBlockerInputs): string[] {
  const blockers: string[] = [];
  const isReadyPdf = (d: TBlockerInputs["documents"][number]) => d.uploadState === "UPLOADED" && d.contentType === "application/pdf";
  if (!docs.some(isReadyPdf)) blockers.push("Upload at least one PDF document");
  for (const d of docs) {
    if (d.uploadState !== "UPLOADED") blockers.push(`“${d.name}” is not uploaded yet`);
    else if (d.contentType !== "application/pdf") blockers.push(`Convert “${d.name}” to PDF`);
  }
  return [...blockers, ...roleBlockers({ roles, fields })];
}

/** The roles' part of activationBlockers: at least one role, and a required signature field for each. */
export function roleBlockers({ roles, fields }: Pick<TBlockerInputs, "roles" | "fields">): string[] {
  const blockers: string[] = [];
  if (roles.length === 0) blockers.push("Add at least one role");
  const signing = new Set(fields.filter((f) => f.type === "signature" && f.required).map((f) => f.roleId));
  for (const role of [...roles].sort((a, b) => a.position - b.position)) {
    if (!signing.has(role.id)) blockers.push(`Give the role “${role.name}” a required signature field`);
  }
  return blockers;
}

/** The activation blockers of a stored template (see activationBlockers). */
export async function findActivationBlockers(db: Db, templateId: string): Promise<string[]> {
  const [docs, roles, fields] = await Promise.all([
    db
      .select({ name: documents.name, uploadState: documents.uploadState, contentType: documents.contentType })
      .from(documents)
      .where(eq(documents.templateId, templateId))
      .orderBy(asc(documents.position), asc(documents.createdAt)),
    db
      .select({ id: templateRoles.id, name: templateRoles.name, position: templateRoles.position })
      .from(templateRoles)
      .where(eq(templateRoles.templateId, templateId)),
    db
      .select({ roleId: templateFields.roleId, type: templateFields.type, required: templateFields.required })
      .from(templateFields)
      .where(and(eq(templateFields.templateId, templateId), eq(templateFields.type, "signature"), eq(templateFields.required, true))),
  ]);
  return activationBlockers({ documents: docs, roles, fields });
}

export const KEEP_ACTIVE_REFUSED = "Set the template back to Draft before this change, which would stop it making packages";

/** The rule as the API reference states it, for every operation that changes an ACTIVE template's parts. */
export const KEEP_ACTIVE_RULE =
  "On an ACTIVE template, a change that would stop it making packages (its last document or role removed, a role's only required signature field removed or made optional, a role or a document still to upload added) is refused with 409 `" +
  KEEP_ACTIVE_REFUSED +
  ": <reasons>`; set it back to DRAFT first.";

/**
 * Guards a change to an ACTIVE template: call before the change, then call the returned check inside the same
 * transaction after it. The check refuses (409) when the template is still ACTIVE and the change brought a
 * blocker it did not have (its last document or role removed, a role's only required signature field removed or
 * made optional, a role or a document still to upload added). A template that is not ACTIVE before or after the
 * change (it may be the move back to DRAFT), or a change that brings no new blocker (a rename, a field moved), passes.
 */
export async function guardActiveTemplate(tx: Db, template: { id: string; status: string }): Promise<() => Promise<void>> {
  if (template.status !== "ACTIVE") return async () => {};
  const before = new Set(await findActivationBlockers(tx, template.id));
  return async () => {
    const [row] = await tx.select({ status: templates.status }).from(templates).where(eq(templates.id, template.id));
    if (row?.status !== "ACTIVE") return;
    const added = (await findActivationBlockers(tx, template.id)).filter((b) => !before.has(b));
    if (added.length > 0) throw errors.conflict(`${KEEP_ACTIVE_REFUSED}: ${added.join("; ")}`);
  };
}
