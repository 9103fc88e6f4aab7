/**
 * Test mode (issue 23, item 2; docs/decisions/test-mode.md), the whole flow in a test workspace — template, send,
 * sign, seal, webhook — beside the same flow in a live workspace, with a real SMTP server on loopback:
 * - no message of the test workspace reaches SMTP: each is KEPT in the outbox with `test: true`;
 * - no allowance is consumed (the allowance is 0, and the send still goes out);
 * - every page of every sealed file (document, merged, certificate) carries "TEST — not a valid signature",
 *   read back with pdftotext; the live files carry none;
 * - the seal is the test identity, and /verify says `test: true` (the live file: `test: false`);
 * - the webhook is delivered with `"test": true` and its sequence; the live one has no `test`.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GET as downloadRoute } from "@/app/api/v1/packages/[packageId]/download/route";
import { GET as certificateRoute } from "@/app/api/v1/packages/[packageId]/certificate/route";
import { mailMessages, organisations, sealedFiles, signingKeys } from "@/server/db/schema";
import type { Db } from "@/server/db/client";
import { mailJobs } from "@/server/domain/mail/jobs";
import { startSmtpSink, type TSmtpSink } from "@/server/domain/mail/test-support/smtp-sink";
import { createMailTransport, type TMailTransport } from "@/server/domain/mail/transport";
import { deliverDueWebhooks } from "@/server/domain/webhooks/delivery/deliver-due-webhooks";
import { createEndpoint } from "@/server/domain/webhooks/endpoints/create-endpoint";
import { useLocalReceiver } from "@/server/domain/webhooks/test-support/use-local-receiver";
import { setClock } from "@/server/lib/clock";
import { runDueItem } from "@/server/lib/jobs";
import { TEST_MARK } from "@/server/pdf/test-mark";
import { workspaceActor } from "@/server/test/actors";
import { useTestDb } from "@/server/test/db";
import { callRoute } from "@/server/test/http";
import { runTool } from "@/server/test/sealing-fixtures";
import { signedPackage } from "@/server/test/signed-package";
import { getFileStore } from "@/server/storage/get-file-store";
import { sealDuePackages } from "./seal-due-packages";
import { resetSigningIdentity, TEST_IDENTITY } from "./signing-identity";
import { verifySealedUpload } from "./verify-sealed-upload";

const t = useTestDb();
const rx = useLocalReceiver();
const dir = mkdtempSync(path.join(tmpdir(), "foliosign-testmode-"));
const start = new Date("2026-03-02T09:00:00Z");
let sink: TSmtpSink;
let smtp: TMailTransport;

beforeAll(async () => {
  sink = await startSmtpSink();
  smtp = createMailTransport({ smtpUrl: sink.url, from: "Foliosign <no-reply@foliosign.test>" });
});
afterAll(async () => {
  await sink.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  setClock(() => start);
  resetSigningIdentity();
  sink.received.length = 0;
  rx.received.length = 0;
});
afterEach(() => setClock(undefined));

/** The mail job with SMTP configured, run until nothing is due. */
async function drainMail(db: Db): Promise<void> {
  const job = mailJobs({ transport: () => smtp }).sendMail;
  while (await runDueItem(db, job, { at: new Date(start.getTime() + 60_000), skip: [] }));
}

/** Each page's text of a PDF (pdftotext separates pages with a form feed; the last one ends the file). */
function pageTexts(bytes: Uint8Array, name: string): string[] {
  const file = path.join(dir, name);
  writeFileSync(file, bytes);
  const pages = Number(/Pages:\s+(\d+)/.exec(runTool("pdfinfo", [file]).out)?.[1]);
  const texts = runTool("pdftotext", ["-enc", "UTF-8", file, "-"]).out.split("\f").slice(0, pages);
  expect(texts).toHaveLength(pages);
  return texts;
}

/** A package signed by both recipients, an endpoint registered, then sealed, the webhooks delivered, the mail run. */
async function flow(test: boolean) {
  const { org, key, pkgId } = await signedPackage(t.db, { test, allowance: test ? 0 : undefined });
  await createEndpoint(t.db, workspaceActor(org.organisationId, org.workspaceId), { url: rx.url, events: ["PACKAGE_COMPLETED"] });
  expect(await sealDuePackages(t.db)).toEqual([{ packageId: pkgId, outcome: "sealed" }]);
  await deliverDueWebhooks(t.db);
  await rx.waitFor(1);
  await drainMail(t.db);
  const download = async (route: typeof downloadRoute) => new Uint8Array(await (await callRoute(route, { key, params: { packageId: pkgId } })).arrayBuffer());
  const [document] = await t.db.select().from(sealedFiles).where(eq(sealedFiles.kind, "document"));
  const chunks: Buffer[] = [];
  for await (const c of (await (await getFileStore()).get(document!.storageKey)).body) chunks.push(Buffer.from(c as Uint8Array));
  const documentBytes = new Uint8Array(Buffer.concat(chunks));
  return { org, key, pkgId, merged: await download(downloadRoute), certificate: await download(certificateRoute), document: documentBytes };
}

describe("test mode: template → send → sign → seal → webhook", () => {
  it("in a test workspace: mail kept, no allowance, TEST on every page, the test identity, /verify says test, webhook test: true", async () => {
    const { org, key, pkgId, merged, certificate, document } = await flow(true);
    expect(key.startsWith("fsk_test_")).toBe(true);

    // No allowance consumed: the allowance is 0 and nothing was counted.
    const [plan] = await t.db.select().from(organisations).where(eq(organisations.id, org.organisationId));
    expect([plan!.packageAllowance, plan!.packagesUsed]).toEqual([0, 0]);

    // No mail left the instance: SMTP is configured and received nothing; every message is KEPT and test.
    expect(sink.received).toEqual([]);
    const mail = await t.db.select().from(mailMessages).where(eq(mailMessages.packageId, pkgId));
    expect(mail.map((m) => m.kind).sort()).toEqual(["COMPLETED", "COMPLETED", "COMPLETED", "INVITATION", "INVITATION"]);
    for (const m of mail)
      expect({ status: m.status, transport: m.transport, test: m.test, attempts: m.attempts }).toEqual({
        status: "KEPT",
        transport: "outbox",
        test: true,
        attempts: 0,
      });

    // The mark on every page of every sealed file.
    for (const [name, bytes] of [
      ["merged.pdf", merged],
      ["certificate.pdf", certificate],
      ["document.pdf", document],
    ] as const) {
      const pages = pageTexts(bytes, name);
      expect(pages.length).toBeGreaterThan(0);
      pages.forEach((text, i) => expect(text, `${name} page ${i + 1}`).toContain(TEST_MARK));
    }

    // Sealed with the test identity, which /verify recognises.
    const [testKey] = await t.db.select().from(signingKeys).where(eq(signingKeys.id, TEST_IDENTITY));
    expect(testKey).toBeDefined();
    for (const bytes of [merged, certificate, document]) {
      const verdict = await verifySealedUpload(t.db, bytes);
      expect(verdict).toMatchObject({ sealedHere: true, unaltered: true, test: true });
      expect(verdict.message).toBe(
        "This file was sealed by this instance and has not been changed since. It was sealed in a TEST workspace: it is not a valid signature.",
      );
    }

    // The webhook: delivered as usual, with "test": true and its sequence.
    expect(rx.received).toHaveLength(1);
    const body = JSON.parse(rx.received[0]!.body) as Record<string, unknown>;
    expect(body).toMatchObject({ event: "PACKAGE_COMPLETED", test: true, data: { packageId: pkgId } });
    expect(typeof body.sequence).toBe("number");
    expect(Object.keys(body)).toEqual(["event", "timestamp", "sequence", "data", "test"]);
  });

  it("in a live workspace, the same flow: mail through SMTP, allowance consumed, no mark, the live identity, no test field", async () => {
    const { org, pkgId, merged, certificate } = await flow(false);
    const [plan] = await t.db.select().from(organisations).where(eq(organisations.id, org.organisationId));
    expect(plan!.packagesUsed).toBe(1);
    const mail = await t.db.select().from(mailMessages).where(eq(mailMessages.packageId, pkgId));
    expect(mail.every((m) => m.status === "SENT" && m.transport === "smtp" && !m.test)).toBe(true);
    expect(sink.received).toHaveLength(mail.length);
    for (const [name, bytes] of [
      ["live-merged.pdf", merged],
      ["live-certificate.pdf", certificate],
    ] as const) {
      for (const text of pageTexts(bytes, name)) expect(text).not.toContain("TEST");
      const verdict = await verifySealedUpload(t.db, bytes);
      expect(verdict).toMatchObject({ sealedHere: true, unaltered: true, test: false });
      expect(verdict.message).toBe("This file was sealed by this instance and has not been changed since.");
    }
    expect(await t.db.select().from(signingKeys).where(eq(signingKeys.id, TEST_IDENTITY))).toEqual([]);
    const body = JSON.parse(rx.received[0]!.body) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(["event", "timestamp", "sequence", "data"]);
  });
});
