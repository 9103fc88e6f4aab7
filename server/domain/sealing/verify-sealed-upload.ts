import { createHash } from "node:crypto";
import { and, asc, eq, isNull } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { packages, recipientSessions, sealedFiles, sealedFileVersions, signingKeys } from "@/server/db/schema";
import { errors } from "@/server/lib/errors";
import { logger } from "@/server/lib/logger";
import { inspectEvidence } from "@/server/pdf/evidence";
import { verifySealed } from "@/server/pdf/verify-sealed";
import type { TVerification } from "./schemas";
import { getSigningIdentity, TEST_IDENTITY } from "./signing-identity";

/**
 * This instance's signing certificates, current and past (a rotated identity must still verify what it sealed),
 * and apart from them the test workspaces' identity (docs/decisions/test-mode.md).
 */
async function trustedCertificates(db: Db): Promise<{ live: Uint8Array[]; test: Uint8Array[] }> {
  const rows = await db.select({ id: signingKeys.id, certificate: signingKeys.certificate }).from(signingKeys);
  const der = (r: { certificate: string }) => new Uint8Array(Buffer.from(r.certificate, "base64"));
  const live: Uint8Array[] = rows.filter((r) => r.id !== TEST_IDENTITY).map(der);
  try {
    live.push((await getSigningIdentity(db)).certificateDer);
  } catch (err) {
    logger().warn({ err }, "verify: the signing identity could not be loaded; checking against stored certificates only");
  }
  return { live, test: rows.filter((r) => r.id === TEST_IDENTITY).map(der) };
}

const TEST_NOTE = " It was sealed in a TEST workspace: it is not a valid signature.";

/** The file's evidence as the engine reads it from the bytes alone (each time-stamp checked on its own). */
async function readEvidence(bytes: Uint8Array): Promise<TVerification["evidence"]> {
  try {
    const found = await inspectEvidence(bytes);
    const timestamps = found.timestamps.map((t) => ({
      kind: t.kind,
      time: t.time.toISOString(),
      authority: t.authority,
      valid: t.valid,
    }));
    return { level: found.level, trustedTime: timestamps.some((t) => t.valid), timestamps };
  } catch (err) {
    logger().warn({ err }, "verify: the file's time-stamps could not be read");
    return { level: "B-B", trustedTime: false, timestamps: [] };
  }
}

/** The completed package holding this exact file: as its newest version, or as an earlier one. */
async function findSealedCopy(db: Db, sha256: string) {
  const [current] = await db
    .select({ pkg: packages })
    .from(sealedFiles)
    .innerJoin(packages, eq(packages.id, sealedFiles.packageId))
    .where(and(eq(sealedFiles.sha256, sha256), eq(packages.status, "COMPLETED"), isNull(packages.deletedAt)))
    .limit(1);
  if (current) return { pkg: current.pkg, newerVersion: false };
  const [earlier] = await db
    .select({ pkg: packages })
    .from(sealedFileVersions)
    .innerJoin(packages, eq(packages.id, sealedFileVersions.packageId))
    .where(and(eq(sealedFileVersions.sha256, sha256), eq(packages.status, "COMPLETED"), isNull(packages.deletedAt)))
    .limit(1);
  return earlier ? { pkg: earlier.pkg, newerVersion: true } : null;
}

/**
 * The /verify page's check, for anyone: was this PDF sealed by this instance, and is it exactly the file it
 * sealed? "Unaltered" needs both the signature intact and the file's SHA-256 found among the stored sealed
 * files — their newest versions or any earlier one (an upgrade or renewal adds time-stamps by incremental
 * update; a copy downloaded before it is still what was sealed, and the answer says a newer version exists).
 * Only then does the answer name the package's title, completion time and signers' names — what the file's own
 * certificate already shows, so a stranger learns nothing the file does not already say. For any file carrying
 * this instance's seal, `evidence` gives its level and each time-stamp's time and authority, each token checked
 * on its own. An empty upload is a 400.
 */
export async function verifySealedUpload(db: Db, upload: Uint8Array): Promise<TVerification> {
  if (upload.length === 0) throw errors.badRequest("Choose a PDF file to check");
  // A plain Uint8Array copy (the request body arrives as a Buffer, whose slice() shares memory).
  const bytes = new Uint8Array(upload);
  const none = { package: null, evidence: null, newerVersion: false, test: false };
  const trusted = await trustedCertificates(db);
  const liveCheck = await verifySealed(bytes, trusted.live);
  // Not a live seal: perhaps the test identity's (a test workspace's package).
  const testCheck = liveCheck.signed && !liveCheck.signerMatches && trusted.test.length > 0 ? await verifySealed(bytes, trusted.test) : null;
  const test = testCheck?.signerMatches ?? false;
  const check = test && testCheck ? testCheck : liveCheck;
  const note = test ? TEST_NOTE : "";
  if (!check.signed)
    return { sealedHere: false, unaltered: false, message: "This file carries no seal of this instance: it has no digital signature we can read.", ...none };
  if (!check.signerMatches) return { sealedHere: false, unaltered: false, message: "This file was not sealed by this instance.", ...none };
  const evidence = await readEvidence(bytes);
  if (!check.intact) return { sealedHere: true, unaltered: false, message: `This file was changed after it was sealed.${note}`, ...none, evidence, test };

  const found = await findSealedCopy(db, createHash("sha256").update(bytes).digest("hex"));
  if (!found) {
    return {
      sealedHere: true,
      unaltered: false,
      message: `The seal is intact, but this instance keeps no completed package with this exact file (it may have been deleted).${note}`,
      ...none,
      evidence,
      test,
    };
  }
  const sessions = await db
    .select({ name: recipientSessions.name, position: recipientSessions.position })
    .from(recipientSessions)
    .where(eq(recipientSessions.packageId, found.pkg.id))
    .orderBy(asc(recipientSessions.position));
  return {
    sealedHere: true,
    unaltered: true,
    message:
      (found.newerVersion
        ? "This file was sealed by this instance and has not been changed since. A newer version of it exists, with stronger time-stamp evidence: download it again to get it."
        : "This file was sealed by this instance and has not been changed since.") + note,
    package: {
      title: found.pkg.title,
      completedAt: found.pkg.completedAt?.toISOString() ?? null,
      signers: sessions.map((s) => s.name ?? `Recipient ${s.position + 1}`),
    },
    evidence,
    newerVersion: found.newerVersion,
    test,
  };
}
