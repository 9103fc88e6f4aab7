import { and, eq, or } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { packageFields, recipientSessions } from "@/server/db/schema";
import { errors } from "@/server/lib/errors";
import type { TFileRef } from "@/server/storage/file-store";
import { getFileStore } from "@/server/storage/get-file-store";
import { assertCanSign } from "./assert-can-sign";
import { findSigningSession } from "./find-signing-session";
import type { TSigningRequest } from "./schemas";

/**
 * The stored image of a signature field the signing page shows: one of this recipient's own (to show it again
 * after a reload), or one of another recipient of the package who has FINISHED (shown read-only, as sealed).
 * Another recipient's image before they finished is 404, like an unknown field.
 */
export async function readFieldImage(db: Db, request: TSigningRequest, { fieldId }: { fieldId: string }): Promise<TFileRef> {
  const { pkg, session } = await findSigningSession(db, request);
  assertCanSign(pkg, session);
  const [field] = await db
    .select({ key: packageFields.valueStorageKey })
    .from(packageFields)
    .innerJoin(recipientSessions, eq(recipientSessions.id, packageFields.sessionId))
    .where(
      and(
        eq(packageFields.id, fieldId),
        eq(packageFields.packageId, pkg.id),
        or(eq(packageFields.sessionId, session.id), eq(recipientSessions.status, "COMPLETED")),
      ),
    );
  if (!field?.key) throw errors.notFound("Image");
  return { store: await getFileStore(), key: field.key };
}
