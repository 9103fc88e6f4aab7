import type { Db } from "@/server/db/client";
import { uploadTokens } from "@/server/db/schema";
import { env } from "@/server/env";
import { now } from "@/server/lib/clock";
import { randomToken, sha256Hex } from "@/server/lib/crypto";
import { newId } from "@/server/lib/ids";
import { UPLOAD_URL_TTL_MS } from "./messages";

/**
 * A fresh upload URL for a document: 32 random bytes (base64url) in the path, only their SHA-256 stored, so a
 * database dump cannot upload anything. Valid two hours; used once (see receive-upload.ts).
 */
export async function issueUploadToken(db: Db, documentId: string): Promise<{ uploadUrl: string; expiresAt: Date }> {
  const token = randomToken();
  const at = now();
  const expiresAt = new Date(at.getTime() + UPLOAD_URL_TTL_MS);
  await db.insert(uploadTokens).values({ id: newId("upt"), documentId, tokenHash: sha256Hex(token), expiresAt, createdAt: at });
  return { uploadUrl: `${env().publicUrl}/uploads/${token}`, expiresAt };
}
