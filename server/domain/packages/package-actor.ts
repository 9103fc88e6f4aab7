/**
 * Who changes a package. Members and keys act as a `TActor`; the scheduler acts as "the service" (scheduled
 * sends, expiry, automatic reminders) in the package's own workspace, with no user and no visibility limit;
 * a recipient acts on their own session only (TRecipientActor, server/domain/signing/recipient-actor.ts).
 */
import type { TActor } from "@/server/domain/access/actor";

export type TServiceActor = { kind: "service"; organisation: { id: string }; workspace: { id: string } };
export type TPackageActor = TActor | TServiceActor;

export function serviceActor(organisationId: string, workspaceId: string): TServiceActor {
  return { kind: "service", organisation: { id: organisationId }, workspace: { id: workspaceId } };
}

export function isServiceActor(actor: TPackageActor): actor is TServiceActor {
  return "kind" in actor && actor.kind === "service";
}
