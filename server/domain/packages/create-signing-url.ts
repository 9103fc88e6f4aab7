import { and, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { recipientSessions } from "@/server/db/schema";
import { withEvents } from "@/server/domain/transaction";
import { env } from "@/server/env";
import { now } from "@/server/lib/clock";
import { errors } from "@/server/lib/errors";
import { auditChange } from "@/server/domain/audit/audit-change";
import { issueEmbedLink } from "@/server/domain/embedding/embed-link";
import { findPackage } from "./find-package";
import { issueSigningToken } from "./issue-signing-token";
import type { TPackageActor } from "./package-actor";
import type { TPackageRef, TSigningUrlBody } from "./schemas";

export const SIGNING_URL_MINUTES = 60;

/**
 * A signing link for a session whose turn it is (package IN_PROGRESS, session SENT or OPENED; 409 otherwise),
 * valid 60 minutes. One token per session: the new token replaces the session's previous one (the
 * invitation's link or an earlier signing URL), which stops working.
 *
 * With `embed: { origin }` (docs/decisions/embedded-signing.md): a single-use URL valid 5 minutes for a frame on
 * that origin (422 at `embed.origin` unless the workspace lists it); the session's own link is left alone.
 */
export async function createSigningUrl(db: Db, actor: TPackageActor, input: TPackageRef & TSigningUrlBody) {
  return withEvents(db, async (tx) => {
    const pkg = await findPackage(tx, actor, input.packageId, { forUpdate: true });
    const [session] = await tx
      .select()
      .from(recipientSessions)
      .where(and(eq(recipientSessions.id, input.sessionId), eq(recipientSessions.packageId, pkg.id)));
    if (!session) throw errors.notFound("Recipient session");
    if (pkg.status !== "IN_PROGRESS" || (session.status !== "SENT" && session.status !== "OPENED")) {
      throw errors.conflict("A signing link exists only for a recipient whose turn it is in an IN_PROGRESS package");
    }
    if (input.embed) {
      const embedded = await issueEmbedLink(tx, pkg, session.id, input.embed.origin);
      await auditChange(tx, actor, pkg, "package.signing_url_created", { sessionId: session.id, embedOrigin: input.embed.origin });
      return embedded;
    }
    const at = now();
    const expiresAt = new Date(at.getTime() + SIGNING_URL_MINUTES * 60_000);
    const { token, tokenHash, tokenCiphertext } = issueSigningToken();
    // Its copy is kept too: the completed mail links to the page the recipient signed on (mail-signing-token.ts).
    await tx
      .update(recipientSessions)
      .set({ tokenHash, tokenCiphertext, tokenExpiresAt: expiresAt, updatedAt: at })
      .where(eq(recipientSessions.id, session.id));
    await auditChange(tx, actor, pkg, "package.signing_url_created", { sessionId: session.id });
    return { url: `${env().publicUrl}/sign/${token}`, expiresAt: expiresAt.toISOString() };
  });
}
