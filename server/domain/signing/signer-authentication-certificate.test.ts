/**
 * The certificate of completion says how each signer was authenticated (issue 21): sealed for real, then read
 * back with pdftotext — an asserted identity with the access code, an email code, and a signing link alone.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeEach, expect, it } from "vitest";
import { GET as certificateRoute } from "@/app/api/v1/packages/[packageId]/certificate/route";
import { recipientSessions } from "@/server/db/schema";
import { resetSigningIdentity } from "@/server/domain/sealing/signing-identity";
import { sealDuePackages } from "@/server/domain/sealing/seal-due-packages";
import { setClock } from "@/server/lib/clock";
import { useTestDb } from "@/server/test/db";
import { callRoute } from "@/server/test/http";
import { runTool } from "@/server/test/sealing-fixtures";
import { signedPackage } from "@/server/test/signed-package";

const t = useTestDb();
const dir = mkdtempSync(path.join(tmpdir(), "foliosign-signer-cert-"));

beforeEach(() => {
  setClock(() => new Date("2031-05-01T15:00:00Z"));
  resetSigningIdentity();
});
afterEach(() => setClock(undefined));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function certificateText(key: string, packageId: string): Promise<string> {
  const res = await callRoute(certificateRoute, { key, params: { packageId } });
  expect(res.status).toBe(200);
  const file = path.join(dir, `${packageId}.pdf`);
  writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  return runTool("pdftotext", ["-enc", "UTF-8", file, "-"]).out.replace(/\s+/g, " ");
}

it("prints each signer's authentication: asserted identity and access code, email code, signing link only", { timeout: 120_000 }, async () => {
  const withChecks = await signedPackage(t.db);
  const [tina, lars] = await t.db.select().from(recipientSessions).where(eq(recipientSessions.packageId, withChecks.pkgId)).orderBy(recipientSessions.position);
  await t.db
    .update(recipientSessions)
    .set({
      authMethod: "ACCESS_CODE",
      accessCodeHash: "scrypt$x",
      identity: { method: "SSO (Okta)", assertionId: "8f3a2c9e", authenticatedAt: "2031-05-01T14:02:00.000Z" },
    })
    .where(eq(recipientSessions.id, tina!.id));
  await t.db.update(recipientSessions).set({ authMethod: "EMAIL_CODE" }).where(eq(recipientSessions.id, lars!.id));
  const plain = await signedPackage(t.db);
  const sealed = await sealDuePackages(t.db);
  expect(sealed.map((s) => s.outcome)).toEqual(["sealed", "sealed"]);

  const text = await certificateText(withChecks.key, withChecks.pkgId);
  // pdftotext reads the rows' labels and values as columns: each signer has the label, then their value.
  expect(text.match(/Authentication/g)).toHaveLength(2);
  expect(text).toContain("Identity asserted by the sender: SSO (Okta), assertion 8f3a2c9e, 2031-05-01 14:02 UTC; Access code");
  expect(text).toContain("Email code to l…@example.com");
  expect(text).not.toContain("Signing link only");

  const other = await certificateText(plain.key, plain.pkgId);
  expect(other.match(/Signing link only/g)).toHaveLength(2);
});
