/**
 * The rules of who may do what, as plain functions of the actor. Both doors call them the same way: the route
 * wrapper checks an operation's declared gates with `assertGates` before the domain function runs, and a
 * domain function that needs a finer rule (an owner-only action inside a shared route, a check that depends on
 * the resource) calls the single helper itself.
 */
import type { TTemplateAccess } from "@/server/db/schema";
import { errors } from "@/server/lib/errors";
import { PLAN_FEATURES, type TActor, type TPermission, type TPlanFeature } from "./actor";

/** One permission, or several of which any one suffices. */
export function assertCan(actor: Pick<TActor, "role">, permission: TPermission | readonly TPermission[]): void {
  const wanted: readonly TPermission[] = typeof permission === "string" ? [permission] : permission;
  if (wanted.some((p) => actor.role.permissions[p])) return;
  throw wanted.length === 1 ? errors.missingPermission(wanted[0]!) : errors.missingOneOf(wanted);
}

export function can(actor: Pick<TActor, "role">, permission: TPermission): boolean {
  return actor.role.permissions[permission];
}

/** 402 naming the feature when the organisation's plan lacks it. */
export function assertFeature(actor: Pick<TActor, "organisation">, feature: TPlanFeature): void {
  if (!actor.organisation.features[feature]) throw errors.paymentRequired({ kind: "feature", feature: PLAN_FEATURES[feature] });
}

/** USE reads templates; CREATE also creates and edits them. */
export function assertTemplateAccess(actor: Pick<TActor, "role">, level: TTemplateAccess): void {
  if (level === "CREATE" && actor.role.templateAccess !== "CREATE") throw errors.templateAccess(level);
}

/** Owner-only actions (keys, members, roles, workspaces, security) refuse everyone else with 403. */
export function assertOwner(actor: Pick<TActor, "isOwner">): void {
  if (!actor.isOwner) throw errors.forbidden("Only the organisation's owner can do this");
}

/** What an operation declares it needs; see `assertGates`. */
export type TGates = {
  permission?: TPermission | readonly TPermission[];
  /** A plan feature beyond the door's own (the public API for keys). */
  feature?: TPlanFeature;
  templateAccess?: TTemplateAccess;
  ownerOnly?: boolean;
};

/** The declared gates in a fixed order: plan (402) → owner (403) → permission (403) → template access (403). */
export function assertGates(actor: TActor, gates: TGates): void {
  if (gates.feature) assertFeature(actor, gates.feature);
  if (gates.ownerOnly) assertOwner(actor);
  if (gates.permission) assertCan(actor, gates.permission);
  if (gates.templateAccess) assertTemplateAccess(actor, gates.templateAccess);
}
