import { and, asc, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { auditEvents, documents, packageFields, packages, recipientSessions, users } from "@/server/db/schema";
import { env } from "@/server/env";
import type { TSealPackageInput } from "@/server/pdf/seal-package";
import type { TCertificateEvent, TCertificateRecipient, TSealDocumentInput, TSealField } from "@/server/pdf/types";
import { getFileStore } from "@/server/storage/get-file-store";
import { StoredFileNotFoundError } from "@/server/storage/file-store";
import { auditChainHead } from "./audit-chain-head";
import { describeSignerAuthentication } from "@/server/domain/packages/recipient-authentication";

type TPackageRow = typeof packages.$inferSelect;
type TFieldRow = typeof packageFields.$inferSelect;

/** A reason the seal cannot be made from what is stored; its message is shown to the owner as is. */
export class SealInputError extends Error {
  override name = "SealInputError";
}

async function readStored(key: string, what: string): Promise<Uint8Array> {
  const store = await getFileStore();
  try {
    const file = await store.get(key);
    const chunks: Buffer[] = [];
    for await (const chunk of file.body) chunks.push(Buffer.from(chunk as Uint8Array));
    return new Uint8Array(Buffer.concat(chunks));
  } catch (err) {
    if (err instanceof StoredFileNotFoundError) throw new SealInputError(`${what} is missing from storage`);
    throw err;
  }
}

async function toSealField(f: TFieldRow): Promise<TSealField | null> {
  const box = { pageIndex: f.page - 1, x: f.x, y: f.y, width: f.width, height: f.height };
  if (f.type === "signature" || f.type === "initials") {
    if (f.valueStorageKey) return { ...box, type: f.type, image: await readStored(f.valueStorageKey, `The ${f.type} image of field ${f.id}`) };
    return f.value ? { ...box, type: f.type, text: f.value } : null;
  }
  if (f.type === "checkbox") return f.value === null ? null : { ...box, type: "checkbox", checked: f.value === "true" };
  return f.value ? { ...box, type: f.type, text: f.value } : null;
}

/**
 * Everything the engine needs to seal a package, read from storage and the database only: the ORIGINAL files
 * (never anything a browser built) and the STORED field values (drawn signatures from `value_storage_key`),
 * the recipients with where and when they signed, and the audit trail with its chain head.
 */
export async function loadSealInput(db: Db, pkg: TPackageRow): Promise<Omit<TSealPackageInput, "identity">> {
  const docs = await db.select().from(documents).where(eq(documents.packageId, pkg.id)).orderBy(asc(documents.position), asc(documents.id));
  if (docs.length === 0) throw new SealInputError("The package has no document to seal");
  const fields = await db.select().from(packageFields).where(eq(packageFields.packageId, pkg.id)).orderBy(asc(packageFields.createdAt), asc(packageFields.id));
  const sessions = await db.select().from(recipientSessions).where(eq(recipientSessions.packageId, pkg.id)).orderBy(asc(recipientSessions.position));
  const trail = await db
    .select({ e: auditEvents, email: users.email })
    .from(auditEvents)
    .leftJoin(users, eq(users.id, auditEvents.actorUserId))
    .where(and(eq(auditEvents.organisationId, pkg.organisationId), eq(auditEvents.subjectType, "package"), eq(auditEvents.subjectId, pkg.id)))
    .orderBy(asc(auditEvents.createdAt), asc(auditEvents.id));

  const sealDocs: TSealDocumentInput[] = [];
  for (const doc of docs) {
    if (!doc.storageKey) throw new SealInputError(`The document “${doc.name}” was never uploaded`);
    const original = await readStored(doc.storageKey, `The original of “${doc.name}”`);
    const own: TSealField[] = [];
    for (const f of fields.filter((x) => x.documentId === doc.id)) {
      const field = await toSealField(f);
      if (field) own.push(field);
    }
    sealDocs.push({ id: doc.id, name: doc.name, original, fields: own });
  }

  const recipients: TCertificateRecipient[] = [];
  for (const s of sessions) {
    const signature = fields.find((f) => f.sessionId === s.id && f.type === "signature" && (f.valueStorageKey || f.value));
    const image = signature?.valueStorageKey ? await readStored(signature.valueStorageKey, `The signature image of ${s.email ?? "a recipient"}`) : undefined;
    recipients.push({
      name: s.name ?? s.email ?? "",
      email: s.email ?? "",
      role: s.roleName ?? `Recipient ${s.position + 1}`,
      signingOrder: s.position + 1,
      ipAddress: s.clientAddress,
      userAgent: s.userAgent,
      consentedAt: s.consentAt,
      sentAt: s.sentAt,
      openedAt: s.openedAt,
      completedAt: s.completedAt,
      ...(s.timeZone ? { timeZone: s.timeZone } : {}),
      authentication: describeSignerAuthentication(s),
      ...(image ? { signatureImage: image } : signature?.value ? { signatureText: signature.value } : {}),
    });
  }

  const events: TCertificateEvent[] = trail.map(({ e, email }) => ({
    at: e.createdAt,
    type: e.action,
    actor: email ?? (typeof e.data.by === "string" ? e.data.by : e.clientAddress ? `recipient (${e.clientAddress})` : "the service"),
    ...(typeof e.data.email === "string" ? { detail: e.data.email } : {}),
  }));

  return {
    documents: sealDocs,
    certificate: {
      packageId: pkg.id,
      packageTitle: pkg.title,
      completedAt: pkg.sealRequestedAt,
      recipients,
      events,
      auditChainHead: await auditChainHead(
        db,
        pkg.id,
        trail.map((r) => r.e),
      ),
      verifyUrl: `${env().publicUrl}/verify`,
    },
  };
}
