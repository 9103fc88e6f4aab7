import type { TActor } from "@/server/domain/access/actor";

export type TLockHolderRow = { userId: string; name: string; email: string; expiresAt: Date };

/** The holder of a live edit lock as the API shows it; `mine` only for the signed-in member holding it. */
export function toLockHolderView(lock: TLockHolderRow, actor: Pick<TActor, "user" | "apiKey">) {
  return {
    user: { id: lock.userId, name: lock.name, email: lock.email },
    expiresAt: lock.expiresAt.toISOString(),
    mine: actor.apiKey === null && lock.userId === actor.user.id,
  };
}
