/**
 * Recipients' authentication and identity as the API takes and shows them (issue 21;
 * docs/decisions/signer-authentication.md), through the real route handlers on a real database (PGlite, and
 * PostgreSQL with DATABASE_URL): the three methods and the asserted identity, a template role's preset, their
 * validation errors at exact paths on every input that makes or corrects a recipient, and the access code never
 * echoed (answers, audit trail, webhook outbox, mail, logs). The signing page's check:
 * server/domain/signing/signer-authentication.test.ts.
 */
import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { POST as createRoute } from "@/app/api/v1/packages/route";
import { POST as createFromTemplateRoute } from "@/app/api/v1/packages/from-template/route";
import { POST as bulkSendRoute } from "@/app/api/v1/packages/bulk-send/route";
import { POST as addRecipientRoute } from "@/app/api/v1/packages/[packageId]/recipients/route";
import { PATCH as updateRecipientRoute } from "@/app/api/v1/packages/[packageId]/recipients/[sessionId]/route";
import { GET as getPackageRoute } from "@/app/api/v1/packages/[packageId]/route";
import { GET as auditRoute } from "@/app/api/v1/packages/[packageId]/audit-events/route";
import { POST as addRoleRoute } from "@/app/api/v1/templates/[templateId]/roles/route";
import { POST as addFieldRoute } from "@/app/api/v1/templates/[templateId]/fields/route";
import { PATCH as patchTemplateRoute } from "@/app/api/v1/templates/[templateId]/route";
import { mailMessages, templateRoles, webhookEvents } from "@/server/db/schema";
import { setClock } from "@/server/lib/clock";
import { captureLog, type TCapturedLog } from "@/server/test/captured-log";
import { useTestDb } from "@/server/test/db";
import { callJson } from "@/server/test/http";
import { ACCESS_CODE, sentSignerPackage, sessionRow, signerTestOrg, type TBody, type TPkg } from "@/server/test/signer-auth-package";

const t = useTestDb();
let log: TCapturedLog | undefined;

afterEach(() => {
  setClock(undefined);
  log?.restore();
  log = undefined;
});

async function setup() {
  setClock(() => new Date("2031-05-01T09:00:00Z"));
  return signerTestOrg(t.db);
}

async function sentPackage() {
  setClock(() => new Date("2031-05-01T09:00:00Z"));
  return sentSignerPackage(t.db);
}

const session = (id: string) => sessionRow(t.db, id);

describe("recipients' authentication and identity in the API", () => {
  it("takes the three methods and an asserted identity, shows the method and identity, and never the code", async () => {
    log = captureLog("debug");
    const s = await sentPackage();
    const { tina, lars } = s;
    expect(tina.authentication).toEqual({ method: "ACCESS_CODE", locked: false });
    expect(tina.identity).toEqual({ method: "SSO (Okta)", assertionId: "8f3a2c9e", authenticatedAt: "2031-05-01T09:02:00.000Z" });
    expect(lars.authentication).toEqual({ method: "EMAIL_CODE", locked: false });
    expect(lars.identity).toBeNull();

    // A blank package's recipients: the default is NONE.
    const blank = await callJson<TBody<TPkg>>(createRoute, { key: s.key, body: { title: "Blank", recipients: [{ email: "nora@example.com" }] } });
    expect(blank.status).toBe(201);
    expect(blank.body.data.recipientSessions[0]!.authentication).toEqual({ method: "NONE", locked: false });

    // Stored only as a scrypt hash of the trimmed code.
    const row = await session(tina.id);
    expect(row.accessCodeHash).toMatch(/^scrypt\$/);
    expect(row.accessCodeHash).not.toContain(ACCESS_CODE);

    const got = await callJson<TBody<TPkg>>(getPackageRoute, { key: s.key, params: { packageId: s.packageId } });
    const audit = await callJson<TBody>(auditRoute, { key: s.key, params: { packageId: s.packageId } });
    const hooks = await t.db.select().from(webhookEvents);
    const mails = await t.db.select().from(mailMessages);
    for (const text of [
      JSON.stringify(s.created),
      JSON.stringify(got.body),
      JSON.stringify(audit.body),
      JSON.stringify(hooks),
      JSON.stringify(mails),
      log.lines.join(""),
    ]) {
      expect(text).not.toContain(ACCESS_CODE);
    }
  });

  it("answers 422 naming the exact field of a bad authentication or identity, on every input that makes or corrects a recipient", async () => {
    const s = await sentPackage();
    const blank = (recipient: Record<string, unknown>) => callJson<TBody>(createRoute, { key: s.key, body: { title: "Blank", recipients: [recipient] } });
    const cases: [Record<string, unknown>, string][] = [
      [{ authentication: { method: "ACCESS_CODE" } }, "recipients.0.authentication.accessCode"],
      [{ authentication: { method: "ACCESS_CODE", accessCode: "abc" } }, "recipients.0.authentication.accessCode"],
      [{ authentication: { method: "ACCESS_CODE", accessCode: "x".repeat(51) } }, "recipients.0.authentication.accessCode"],
      [{ authentication: { method: "EMAIL_CODE", accessCode: "abcd" } }, "recipients.0.authentication.accessCode"],
      [{ authentication: { method: "SMS" } }, "recipients.0.authentication.method"],
      [{ identity: { method: "x".repeat(101) } }, "recipients.0.identity.method"],
      [{ identity: { method: "SSO", authenticatedAt: "yesterday" } }, "recipients.0.identity.authenticatedAt"],
    ];
    for (const [extra, path] of cases) {
      const res = await blank({ email: "nora@example.com", ...extra });
      expect(res.status, path).toBe(422);
      expect(Object.keys(res.body.details ?? {}), JSON.stringify(extra)).toEqual([path]);
    }
    const fromTemplate = await callJson<TBody>(createFromTemplateRoute, {
      key: s.key,
      body: {
        templateId: s.tpl.templateId,
        title: "T",
        recipients: [
          { email: "a@example.com", roleIndex: 0, authentication: { method: "ACCESS_CODE", accessCode: "123" } },
          { email: "b@example.com", roleIndex: 1 },
        ],
      },
    });
    expect(fromTemplate.status).toBe(422);
    expect(Object.keys(fromTemplate.body.details!)).toEqual(["recipients.0.authentication.accessCode"]);
    const bulk = await callJson<TBody>(bulkSendRoute, {
      key: s.key,
      body: {
        templateId: s.tpl.templateId,
        items: [
          {
            recipients: [
              { email: "a@example.com", roleIndex: 0 },
              { email: "b@example.com", roleIndex: 1, authentication: { method: "NOPE" } },
            ],
          },
        ],
      },
    });
    // A bulk item is checked on its own: it fails alone, named within the item.
    expect(bulk.status).toBe(200);
    const [item] = (bulk.body.data as unknown as { results: { status: string; details: Record<string, string[]> }[] }).results;
    expect(item!.status).toBe("failed");
    expect(Object.keys(item!.details)).toEqual(["recipients.1.authentication.method"]);
    const added = await callJson<TBody>(addRecipientRoute, {
      key: s.key,
      params: { packageId: s.packageId },
      body: { email: "c@example.com", identity: { method: "" } },
    });
    expect(added.status).toBe(422);
    expect(Object.keys(added.body.details!)).toEqual(["identity.method"]);
    const corrected = await callJson<TBody>(updateRecipientRoute, {
      key: s.key,
      params: { packageId: s.packageId, sessionId: s.tina.id },
      body: { authentication: { method: "ACCESS_CODE", accessCode: "ab" } },
    });
    expect(corrected.status).toBe(422);
    expect(Object.keys(corrected.body.details!)).toEqual(["authentication.accessCode"]);
  });

  it("applies a template role's preset method; an ACCESS_CODE role needs the code from the recipient", async () => {
    const s = await setup();
    const params = { templateId: s.tpl.templateId };
    // A role is added to a DRAFT template, given its signature field, and the template activated again.
    expect((await callJson(patchTemplateRoute, { key: s.key, params, body: { status: "DRAFT" } })).status).toBe(200);
    const role = await callJson<TBody<{ authentication: { method: string } }>>(addRoleRoute, {
      key: s.key,
      params,
      body: { name: "Witness", authentication: { method: "EMAIL_CODE" } },
    });
    expect(role.status).toBe(201);
    expect(role.body.data.authentication).toEqual({ method: "EMAIL_CODE" });
    const field = { documentId: s.tpl.documentId, roleIndex: 2, type: "signature", page: 1, x: 10, y: 120, width: 100, height: 30 };
    expect((await callJson(addFieldRoute, { key: s.key, params, body: field })).status).toBe(201);
    expect((await callJson(patchTemplateRoute, { key: s.key, params, body: { status: "ACTIVE" } })).status).toBe(200);
    const recipients = [
      { email: "a@example.com", roleIndex: 0 },
      { email: "b@example.com", roleIndex: 1 },
      { email: "w@example.com", roleIndex: 2 },
    ];
    const made = await callJson<TBody<TPkg>>(createFromTemplateRoute, { key: s.key, body: { templateId: s.tpl.templateId, title: "T", recipients } });
    expect(made.status).toBe(201);
    expect(made.body.data.recipientSessions.map((r) => r.authentication.method)).toEqual(["NONE", "NONE", "EMAIL_CODE"]);

    await t.db
      .update(templateRoles)
      .set({ authMethod: "ACCESS_CODE" })
      .where(and(eq(templateRoles.templateId, s.tpl.templateId), eq(templateRoles.position, 0)));
    const missing = await callJson<TBody>(createFromTemplateRoute, { key: s.key, body: { templateId: s.tpl.templateId, title: "T", recipients } });
    expect(missing.status).toBe(422);
    expect(Object.keys(missing.body.details!)).toEqual(["recipients.0.authentication.accessCode"]);
    const own = await callJson<TBody<TPkg>>(createFromTemplateRoute, {
      key: s.key,
      body: { templateId: s.tpl.templateId, title: "T", recipients: [{ ...recipients[0], authentication: { method: "NONE" } }, recipients[1], recipients[2]] },
    });
    expect(own.status).toBe(201);
    expect(own.body.data.recipientSessions[0]!.authentication.method).toBe("NONE");
  });
});
