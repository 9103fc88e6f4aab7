import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { memberships, users } from "@/server/db/schema";
import { errors } from "@/server/lib/errors";

/** The owner's member actions' check: `userId` is a (not deleted) member of the organisation, or 404. */
export async function assertMember(db: Db, organisationId: string, userId: string): Promise<void> {
  const [member] = await db
    .select({ id: users.id })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.organisationId, organisationId), eq(memberships.userId, userId), isNull(users.deletedAt)));
  if (!member) throw errors.notFound("Member");
}
