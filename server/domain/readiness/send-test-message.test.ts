/**
 * The Readiness page's "Send a test message" (POST /api/app/readiness/test-message): owners only (403 for an
 * admin member, 401 signed out); it goes straight through SMTP_URL to the owner's own address and reports the
 * server's answer; without SMTP_URL it sends nothing and says so.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { POST as testMessageRoute } from "@/app/api/app/readiness/test-message/route";
import { startSmtpSink, type TSmtpSink } from "@/server/domain/mail/test-support/smtp-sink";
import { resetEnvCache } from "@/server/env";
import { createTestMember } from "@/server/test/actors";
import { callApp } from "@/server/test/app-http";
import { useTestDb } from "@/server/test/db";
import { createTestOrg } from "@/server/test/factories";

const t = useTestDb();
let sink: TSmtpSink;
const saved = { ...process.env };

beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(() => sink.close());
afterEach(() => {
  process.env = { ...saved };
  resetEnvCache();
  sink.received.length = 0;
});

describe("POST /api/app/readiness/test-message", () => {
  it("sends one real message to the signed-in owner and reports the server's answer", async () => {
    Object.assign(process.env, { SMTP_URL: sink.url, MAIL_FROM: "Foliosign <signing@example.com>" });
    resetEnvCache();
    const org = await createTestOrg(t.db);
    const res = await callApp<{ data: { status: string; message: string } }>(testMessageRoute, {
      as: { userId: org.userId, organisationId: org.organisationId },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe("ok");
    expect(res.body.data.message).toMatch(/^The SMTP server accepted a test message to owner@acme-[a-z0-9-]+\.test: 250 /);
    expect(sink.received).toHaveLength(1);
    expect(sink.received[0]).toMatchObject({ subject: "Foliosign test message", from: "signing@example.com" });
  });

  it("says there is nothing to send through without SMTP_URL", async () => {
    delete process.env.SMTP_URL;
    resetEnvCache();
    const org = await createTestOrg(t.db);
    const res = await callApp<{ data: { status: string; message: string } }>(testMessageRoute, {
      as: { userId: org.userId, organisationId: org.organisationId },
    });
    expect(res.body.data).toEqual({ status: "fail", message: "No SMTP server is configured (SMTP_URL): there is nothing to send through." });
    expect(sink.received).toEqual([]);
  });

  it("is for owners only: 403 for an admin member, 401 signed out; nothing is sent", async () => {
    Object.assign(process.env, { SMTP_URL: sink.url });
    resetEnvCache();
    const org = await createTestOrg(t.db);
    const admin = await createTestMember(t.db, org, org.roleIds.admin);
    expect((await callApp(testMessageRoute, { as: { userId: admin.user.id, organisationId: org.organisationId } })).status).toBe(403);
    expect((await callApp(testMessageRoute, { as: null })).status).toBe(401);
    expect(sink.received).toEqual([]);
  });
});
