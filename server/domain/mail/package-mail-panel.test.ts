/**
 * Protects the package page's mail panel (GET /api/app/packages/{packageId}/mail) through the real route, door
 * and gates on a real database, with real messages sent through a real SMTP server on 127.0.0.1: every message
 * about the package, oldest first, with its delivery status — SENT, a refusal recorded as FAILED with the
 * server's reply and its attempts, QUEUED with its next attempt — and nothing of another package; the panel
 * follows the package's visibility (another workspace's package, or one a sender may not see, is 404) and the
 * Mail page's gate (a viewer gets 403).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { GET as packageMailRoute } from "@/app/api/app/packages/[packageId]/mail/route";
import { createActiveTemplate } from "@/server/domain/packages/test-support/fixtures";
import { setClock } from "@/server/lib/clock";
import { runDueItem } from "@/server/lib/jobs";
import { createTestMember } from "@/server/test/actors";
import { callApp } from "@/server/test/app-http";
import { useTestDb } from "@/server/test/db";
import { createTestKey, createTestOrg, createTestWorkspace } from "@/server/test/factories";
import { mailJobs } from "./jobs";
import { queuePackageMail, type TMailPackage } from "./queue-package-mail";
import type { TMailSummary } from "./schemas";
import { startSmtpSink, type TSmtpSink } from "./test-support/smtp-sink";
import { createMailTransport } from "./transport";
import { packageFromTemplate } from "@/server/test/package-from-template";

const t = useTestDb();
const T0 = new Date("2030-07-01T09:00:00.000Z");
let sink: TSmtpSink;

beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(() => sink.close());
afterEach(() => {
  sink.refuseRcpt = () => null;
  setClock(undefined);
});

type TPkg = { id: string; title: string; recipientSessions: { id: string; email: string | null; name: string | null }[] };

/** A DRAFT (so that no transition queues mail of its own: this test queues exactly what it checks). */
async function draftPackage(org: Awaited<ReturnType<typeof createTestOrg>>, key: string, title: string) {
  const tpl = await createActiveTemplate(t.db, org);
  return packageFromTemplate(key, {
    templateId: tpl.templateId,
    title,
    recipients: [
      { email: "ada@example.com", name: "Ada Lovelace", roleIndex: 0 },
      { email: "bounce@example.com", name: "Bo Unce", roleIndex: 1 },
    ],
  });
}

describe("GET /api/app/packages/{packageId}/mail", () => {
  it("lists the package's messages with their delivery status; visibility and gates as on the Mail page", async () => {
    setClock(() => T0);
    const org = await createTestOrg(t.db);
    const key = (await createTestKey(t.db, org)).value;
    const pkg = await draftPackage(org, key, "Lease 7C");
    const other = await draftPackage(org, key, "Another lease");
    const mailPkg = (p: TPkg): TMailPackage => ({
      ...p,
      organisationId: org.organisationId,
      workspaceId: org.workspaceId,
      owner: { userId: org.userId, email: "owner@example.com", name: "Olivia" },
    });
    const recipient = (p: TPkg, i: number) => ({
      sessionId: p.recipientSessions[i]!.id,
      email: p.recipientSessions[i]!.email!,
      name: p.recipientSessions[i]!.name,
    });
    await t.db.transaction(async (tx) => {
      for (const i of [0, 1]) await queuePackageMail(tx, { kind: "INVITATION", pkg: mailPkg(pkg), recipient: recipient(pkg, i), token: `tokPanel${i}` });
      await queuePackageMail(tx, { kind: "INVITATION", pkg: mailPkg(other), recipient: recipient(other, 0), token: "tokOther" });
    });

    const empty = await callApp<{ data: { messages: TMailSummary[] } }>(packageMailRoute, { as: org, params: { packageId: pkg.id } });
    expect(empty.body.data.messages.map((m) => [m.kind, m.to.email, m.status, m.attempts])).toEqual([
      ["INVITATION", "ada@example.com", "QUEUED", 0],
      ["INVITATION", "bounce@example.com", "QUEUED", 0],
    ]);

    // The worker sends through SMTP: Ada's is accepted, the other address is refused for good (550).
    sink.refuseRcpt = (address) => (address.startsWith("bounce@") ? 550 : null);
    const job = mailJobs({ transport: () => createMailTransport({ smtpUrl: sink.url, from: "Foliosign <no-reply@example.com>" }) }).sendMail;
    while (await runDueItem(t.db, job, { at: T0, skip: [] }));

    const res = await callApp<{ data: { messages: TMailSummary[] } }>(packageMailRoute, { as: org, params: { packageId: pkg.id } });
    expect(res.status).toBe(200);
    const [ada, bounce] = res.body.data.messages;
    expect(res.body.data.messages).toHaveLength(2);
    expect(ada).toMatchObject({
      kind: "INVITATION",
      to: { email: "ada@example.com", name: "Ada Lovelace" },
      status: "SENT",
      attempts: 1,
      lastError: null,
      packageId: pkg.id,
    });
    expect(ada!.sentAt).toBe(T0.toISOString());
    expect(bounce).toMatchObject({ kind: "INVITATION", to: { email: "bounce@example.com" }, status: "FAILED", attempts: 1, nextAttemptAt: null });
    expect(bounce!.lastError).toMatch(/550/);
    // No signing link, no HTML: the panel shows statuses; the message itself is on /mail/{id}.
    expect(JSON.stringify(res.body)).not.toContain("tokPanel");

    // Gates and visibility: a viewer 403; a sender who neither owns nor was shared the package 404; another workspace 404.
    const viewer = await createTestMember(t.db, org, org.roleIds.viewer);
    expect(
      (await callApp(packageMailRoute, { as: { userId: viewer.user.id, organisationId: org.organisationId }, params: { packageId: pkg.id } })).status,
    ).toBe(403);
    const sender = await createTestMember(t.db, org, org.roleIds.sender);
    const hidden = await callApp<{ error: string }>(packageMailRoute, {
      as: { userId: sender.user.id, organisationId: org.organisationId },
      params: { packageId: pkg.id },
    });
    expect(hidden).toMatchObject({ status: 404, body: { error: "Package not found" } });
    const sibling = await createTestWorkspace(t.db, org.organisationId, "emea");
    expect((await callApp(packageMailRoute, { as: org, params: { packageId: pkg.id }, workspaceId: sibling })).status).toBe(404);
    expect((await callApp(packageMailRoute, { as: org, params: { packageId: "pkg_unknown" } })).status).toBe(404);
  });
});
