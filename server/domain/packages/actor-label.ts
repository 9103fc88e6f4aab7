import { isServiceActor, type TPackageActor } from "./package-actor";

/** How events name who acted: the member's (or key issuer's) email, or the spec's words "the service". */
export function actorLabel(actor: TPackageActor): string {
  return isServiceActor(actor) ? "the service" : actor.user.email;
}
