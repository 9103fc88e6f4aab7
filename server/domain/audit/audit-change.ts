import type { Db } from "@/server/db/client";
import type { TActor } from "@/server/domain/access/actor";
import type { TServiceActor } from "@/server/domain/packages/package-actor";
import type { TRecipientActor } from "@/server/domain/signing/recipient-actor";
import { AUDIT_SUBJECTS, auditSubjectOf, type TAuditAction } from "./audit-actions";
import { recordAudit } from "./record-audit";

/**
 * Who a change is attributed to: a member or key (its issuing user, the key, the client address), the service
 * (scheduled work: nobody, `by: "the service"`), a recipient on the signing page (their session and address),
 * someone not signed in known by their address alone (`TUnknownRequester`: a failed sign-in), or nobody (`null`:
 * the upload PUT, whose only credential is the upload URL — the event names nobody rather than guessing).
 * Organisation administration and keys are attributed like any member's change (the member and the request's
 * address); `TUserAttribution` names a user alone where no request actor exists (the new owner
 * creating an organisation, the invited user accepting, the emailed reset), and the operator's plan change
 * names nobody but says `by: "operator"` (`OPERATOR`).
 */
export type TAuditActor =
  Pick<TActor, "user" | "apiKey" | "clientAddress"> | TServiceActor | TRecipientActor | TUserAttribution | TUnknownRequester | typeof OPERATOR | null;

/** A person named by user id alone, without key or client address. */
export type TUserAttribution = { kind: "user"; userId: string };
/** Someone not signed in, known only by the address their request came from (a failed sign-in). */
export type TUnknownRequester = { kind: "unknown"; clientAddress: string | null };
/** The operator (the CLI): no user; the event's data says `by: "operator"`. */
export const OPERATOR = { kind: "operator" } as const;

/** The changed thing: its id, and the organisation and workspace it lives in. */
type TAuditSubject = { id: string; organisationId: string; workspaceId: string | null };

/**
 * Records one change in the change's own transaction: the one audit call of every capability. The action
 * (audit-actions.ts) names the subject's chain. The subject is a row (id, organisationId, workspaceId), or just
 * an id in the acting member's or key's own workspace. `data` names what changed — never a secret.
 */
export async function auditChange(tx: Db, actor: TActor, subject: string, action: TAuditAction, data?: Record<string, unknown>): Promise<void>;
export async function auditChange(tx: Db, actor: TAuditActor, subject: TAuditSubject, action: TAuditAction, data?: Record<string, unknown>): Promise<void>;
export async function auditChange(
  tx: Db,
  actor: TAuditActor | TActor,
  subject: string | TAuditSubject,
  action: TAuditAction,
  data: Record<string, unknown> = {},
): Promise<void> {
  const where =
    typeof subject === "string" ? { id: subject, organisationId: (actor as TActor).organisation.id, workspaceId: (actor as TActor).workspace.id } : subject;
  const subjectType = auditSubjectOf(action);
  const spec = AUDIT_SUBJECTS[subjectType];
  const records: readonly string[] = "records" in spec ? spec.records : [];
  const recorded = Object.fromEntries(records.map((key) => [key, (subject as Record<string, unknown>)[key]]));
  const base = { organisationId: where.organisationId, workspaceId: where.workspaceId, subjectType, subjectId: where.id, action };
  if (actor === null) return recordAudit(tx, { ...base, data: { ...recorded, ...data } });
  if ("kind" in actor && actor.kind === "recipient") {
    return recordAudit(tx, { ...base, clientAddress: actor.clientAddress, data: { sessionId: actor.sessionId, ...recorded, ...data } });
  }
  if ("kind" in actor && actor.kind === "unknown") return recordAudit(tx, { ...base, clientAddress: actor.clientAddress, data: { ...recorded, ...data } });
  if ("kind" in actor && actor.kind === "service") return recordAudit(tx, { ...base, data: { by: "the service", ...recorded, ...data } });
  if ("kind" in actor && actor.kind === "operator") return recordAudit(tx, { ...base, data: { by: "operator", ...recorded, ...data } });
  if ("kind" in actor && actor.kind === "user") return recordAudit(tx, { ...base, actorUserId: actor.userId, data: { ...recorded, ...data } });
  const member = actor as Pick<TActor, "user" | "apiKey" | "clientAddress">;
  await recordAudit(tx, {
    ...base,
    actorUserId: member.user.id,
    apiKeyId: member.apiKey?.id ?? null,
    clientAddress: member.clientAddress,
    data: { ...recorded, ...data },
  });
}
