import type { Db } from "@/server/db/client";
import { memberSessions } from "@/server/db/schema";
import { auditChange } from "@/server/domain/audit/audit-change";
import { now } from "@/server/lib/clock";
import { newId } from "@/server/lib/ids";
import { describeDevice } from "./describe-device";
import { keptUserAgent } from "./limits";

export type TSessionOrigin = { clientAddress: string | null; userAgent: string | null };

/**
 * A sign-in's session: its row (whose id the JWT carries) and the `member.signed_in` audit event with the
 * device and address, in one transaction. Called once the password is right (authorize-credentials.ts).
 */
export async function startMemberSession(
  db: Db,
  user: { id: string; email: string; name: string },
  organisationId: string,
  origin: TSessionOrigin,
): Promise<string> {
  const id = newId("msn");
  const at = now();
  const userAgent = keptUserAgent(origin.userAgent);
  await db.transaction(async (tx) => {
    await tx
      .insert(memberSessions)
      .values({ id, userId: user.id, organisationId, clientAddress: origin.clientAddress, userAgent, signedInAt: at, lastSeenAt: at });
    await auditChange(tx, { user, apiKey: null, clientAddress: origin.clientAddress }, { id: user.id, organisationId, workspaceId: null }, "member.signed_in", {
      sessionId: id,
      device: describeDevice(userAgent),
    });
  });
  return id;
}
