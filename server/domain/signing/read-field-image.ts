import type { Readable } from "node:stream";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { packageFields } from "@/server/db/schema";
import { errors } from "@/server/lib/errors";
import { getFileStore } from "@/server/storage/get-file-store";
import { assertCanSign } from "./assert-can-sign";
import { findSigningSession } from "./find-signing-session";
import type { TSigningRequest } from "./schemas";

/** The stored image of one of this recipient's signature fields (to show it again after a reload). */
export async function readFieldImage(db: Db, request: TSigningRequest, fieldId: string): Promise<{ size: number; sha256: string; body: Readable }> {
  const { pkg, session } = await findSigningSession(db, request);
  assertCanSign(pkg, session);
  const [field] = await db
    .select({ key: packageFields.valueStorageKey })
    .from(packageFields)
    .where(and(eq(packageFields.id, fieldId), eq(packageFields.sessionId, session.id)));
  if (!field?.key) throw errors.notFound("Image");
  const stored = await (await getFileStore()).get(field.key);
  return { size: stored.size, sha256: stored.sha256, body: stored.body };
}
