import { and, asc, desc, eq, ne } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { documents, packageFields, recipientAuthCodes, recipientSessions } from "@/server/db/schema";
import { MAX_AUTH_ATTEMPTS, maskEmail } from "@/server/domain/packages/recipient-authentication";
import { now } from "@/server/lib/clock";
import { closedReason } from "./closed-reason";
import { findSigningSession } from "./find-signing-session";
import { completedFieldView, fieldView } from "./field-view";
import type { TSigningRequest, TSigningView } from "./schemas";
import type { TFieldRow } from "./lock-signing-field";
import { needsSignerCheck } from "./signer-pass";

/**
 * What the signing page shows for a link: the documents and this recipient's fields, plus — read-only, as they
 * will be sealed — the fields of the other recipients who have FINISHED (never of one who has not), or the end
 * page's reason. Unknown, revoked and expired links are refused (NOT_FOUND).
 * A recipient who must authenticate and has not passed in this browser sees only the title and the check
 * (AUTHENTICATION_REQUIRED) where they could sign or download their signed copy.
 */
export async function getSigningView(db: Db, request: TSigningRequest): Promise<TSigningView> {
  const { pkg, session } = await findSigningSession(db, request, { beforeSignerCheck: true });
  const reason = closedReason(pkg, session);
  const signedCopy = reason === "COMPLETED" && pkg.status === "COMPLETED";
  if ((!reason || signedCopy) && session.authMethod !== "NONE" && needsSignerCheck(request, session)) {
    const [latest] =
      session.authMethod === "EMAIL_CODE"
        ? await db
            .select({ createdAt: recipientAuthCodes.createdAt })
            .from(recipientAuthCodes)
            .where(eq(recipientAuthCodes.sessionId, session.id))
            .orderBy(desc(recipientAuthCodes.createdAt))
            .limit(1)
        : [];
    return {
      state: "AUTHENTICATION_REQUIRED",
      packageTitle: pkg.title,
      authentication: {
        method: session.authMethod,
        locked: session.authLockedAt !== null,
        attemptsLeft: Math.max(0, MAX_AUTH_ATTEMPTS - session.authFailedAttempts),
        codeSentAt: latest?.createdAt.toISOString() ?? null,
        codeSentTo: session.authMethod === "EMAIL_CODE" ? maskEmail(session.email) : null,
      },
    };
  }
  if (reason) return { state: "CLOSED", reason, packageTitle: reason === "DELETED" ? null : pkg.title, signedCopy };
  const docs = await db
    .select({ id: documents.id, name: documents.name, pageCount: documents.pageCount, pageSizes: documents.pageSizes })
    .from(documents)
    .where(eq(documents.packageId, pkg.id))
    .orderBy(asc(documents.position), asc(documents.createdAt));
  const rows = await db.select().from(packageFields).where(eq(packageFields.sessionId, session.id));
  const completed = await db
    .select({ field: packageFields, name: recipientSessions.name, email: recipientSessions.email })
    .from(packageFields)
    .innerJoin(recipientSessions, eq(recipientSessions.id, packageFields.sessionId))
    .where(and(eq(packageFields.packageId, pkg.id), ne(packageFields.sessionId, session.id), eq(recipientSessions.status, "COMPLETED")));
  const order = new Map(docs.map((d, i) => [d.id, i]));
  // Reading order: document, page, top to bottom, left to right — the order "Next field" follows.
  const byReading = (a: TFieldRow, b: TFieldRow) =>
    (order.get(a.documentId) ?? 0) - (order.get(b.documentId) ?? 0) || a.page - b.page || a.y - b.y || a.x - b.x;
  rows.sort(byReading);
  completed.sort((a, b) => byReading(a.field, b.field));
  const fields = rows.map(fieldView);
  // Only what the seal will draw: a field left empty (optional, unchecked never set) shows nothing.
  const completedFields = completed
    .filter(({ field }) => field.value !== null || field.valueStorageKey !== null)
    .map(({ field, name, email }) => completedFieldView(field, name ?? email ?? "An earlier signer"));
  return {
    state: "OPEN",
    packageTitle: pkg.title,
    message: pkg.message,
    recipient: { name: session.name, email: session.email, role: session.roleName },
    consentAt: session.consentAt?.toISOString() ?? null,
    today: now().toISOString().slice(0, 10),
    documents: docs,
    fields,
    completedFields,
  };
}
