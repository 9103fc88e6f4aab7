import type { TPackageRow } from "@/server/domain/packages/find-package";
import type { TSessionRow } from "@/server/domain/packages/invite-session";
import { SigningRefusal } from "./signing-refusal";
import { closedReason } from "./closed-reason";

/** For reads that take no lock (a document's bytes, a field's image): the same refusals as a transition. */
export function assertCanSign(pkg: TPackageRow, session: TSessionRow): void {
  const reason = closedReason(pkg, session);
  if (!reason) return;
  if (reason === "DELETED") throw new SigningRefusal("NOT_FOUND");
  if (reason === "NOT_SENT" || reason === "ON_HOLD" || reason === "NOT_YOUR_TURN" || reason === "FINISHED") throw new SigningRefusal(reason);
  throw new SigningRefusal("ENDED");
}
