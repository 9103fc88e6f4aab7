import { asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { signingGroupMembers, signingGroups } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { toSigningGroupView } from "./signing-group-view";

/** Every group of the workspace ordered by name ignoring case (the same on every database collation), then exact name and id, each with its members; not paged (spec). */
export async function listSigningGroups(db: Db, actor: TActor) {
  const groups = await db
    .select()
    .from(signingGroups)
    .where(eq(signingGroups.workspaceId, actor.workspace.id))
    .orderBy(sql`lower(${signingGroups.name})`, asc(signingGroups.name), asc(signingGroups.id));
  const members = groups.length
    ? await db
        .select()
        .from(signingGroupMembers)
        .where(
          inArray(
            signingGroupMembers.groupId,
            groups.map((g) => g.id),
          ),
        )
    : [];
  return { signingGroups: groups.map((g) => toSigningGroupView(g, members)) };
}
