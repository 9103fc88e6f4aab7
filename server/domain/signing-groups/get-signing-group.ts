import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { signingGroupMembers } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { findSigningGroup } from "./find-signing-group";
import { toSigningGroupView } from "./signing-group-view";

/** One group of the actor's workspace with its members (404 otherwise). */
export async function getSigningGroup(db: Db, actor: TActor, groupId: string) {
  const group = await findSigningGroup(db, actor, groupId);
  const members = await db.select().from(signingGroupMembers).where(eq(signingGroupMembers.groupId, group.id));
  return toSigningGroupView(group, members);
}
