/**
 * The lifecycle's remaining guarantees, through the real route handlers: 404 for an unknown template, 402 at
 * the recipients-per-package limit, PATCH (PACKAGE_SCHEDULED again only when `sendAt` moves), updating a
 * recipient (an invited one is invited again with a new link), a package shared with a member is visible to
 * their narrow key, another workspace gets 404 on EVERY package route, a rolled-back action leaves no event,
 * bulk send survives an unexpected error in one item, and the audit trail (op 26) is a verifiable hash chain.
 */
import { eq, sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { POST as createFromTemplateRoute } from "@/app/api/v1/packages/from-template/route";
import { GET as listRoute } from "@/app/api/v1/packages/route";
import { GET as getRoute, PATCH as patchRoute } from "@/app/api/v1/packages/[packageId]/route";
import { POST as sendRoute } from "@/app/api/v1/packages/[packageId]/send/route";
import { POST as holdRoute } from "@/app/api/v1/packages/[packageId]/hold/route";
import { GET as auditRoute } from "@/app/api/v1/packages/[packageId]/audit-events/route";
import { POST as addRecipientRoute } from "@/app/api/v1/packages/[packageId]/recipients/route";
import { DELETE as removeRecipientRoute, PATCH as updateRecipientRoute } from "@/app/api/v1/packages/[packageId]/recipients/[sessionId]/route";
import { POST as bulkRoute } from "@/app/api/v1/packages/bulk-send/route";
import { memberships, organisations, packageShares, recipientSessions, users } from "@/server/db/schema";
import { verifyAuditChain } from "@/server/domain/audit/verify-audit-chain";
import { allOperations } from "@/server/http/operations";
import type { TRouteHandler } from "@/server/http/api-route";
import { setClock } from "@/server/lib/clock";
import { newId } from "@/server/lib/ids";
import { expectOtherWorkspaceGets404 } from "@/server/test/cross-workspace";
import { useTestDb } from "@/server/test/db";
import { createTestKey, createTestRole } from "@/server/test/factories";
import { callJson, callRoute } from "@/server/test/http";
import { eventNames, orgWithTemplate, outbox, twoRecipients } from "./test-support/fixtures";

const t = useTestDb();
afterEach(() => setClock(undefined));

type TPkg = { id: string; status: string; title: string; sendAt: string | null; recipientSessions: { id: string; status: string; email: string }[] };
type TBody<T = TPkg> = { data: T; error?: string; details?: Record<string, string[]> };

const recipients = twoRecipients;

async function setup() {
  return orgWithTemplate(t.db);
}

async function fromTemplate(key: string, templateId: string, extra: Record<string, unknown> = {}) {
  return callJson<TBody>(createFromTemplateRoute, { key, body: { templateId, title: "Lease", recipients, ...extra } });
}

async function memberKey(s: Awaited<ReturnType<typeof setup>>) {
  const role = await createTestRole(t.db, s.org.organisationId, { canSendPackages: true });
  const userId = newId("usr");
  await t.db.insert(users).values({ id: userId, email: `${userId}@example.com`, name: "Narrow", passwordHash: null });
  await t.db.insert(memberships).values({ id: newId("mem"), organisationId: s.org.organisationId, userId, roleId: role, isOwner: false });
  const key = await createTestKey(t.db, { ...s.org, userId }, { roleId: role });
  return { userId, key: key.value };
}

describe("creation limits", () => {
  it("404 for an unknown template (from-template and bulk send)", async () => {
    const s = await setup();
    const res = await fromTemplate(s.key, "tpl_unknown");
    expect(res.status).toBe(404);
    expect(res.body.error).toBe("Template not found");
    const bulk = await callJson(bulkRoute, { key: s.key, body: { templateId: "tpl_unknown", items: [{ recipients }] } });
    expect(bulk.status).toBe(404);
  });

  it("402 over the plan's recipients per package (create and add recipient)", async () => {
    const s = await setup();
    const draft = (await fromTemplate(s.key, s.templateId)).body.data;
    await t.db.update(organisations).set({ maxRecipientsPerPackage: 2 }).where(eq(organisations.id, s.org.organisationId));
    const more = await callJson<TBody>(addRecipientRoute, { key: s.key, params: { packageId: draft.id }, body: { email: "third@example.com" } });
    expect(more.status).toBe(402);
    expect(more.body.error).toBe("Your plan's limit of 2 recipients per package would be exceeded");
    await t.db.update(organisations).set({ maxRecipientsPerPackage: 1 }).where(eq(organisations.id, s.org.organisationId));
    const res = await fromTemplate(s.key, s.templateId);
    expect(res.status).toBe(402);
    expect(res.body.error).toBe("Your plan's limit of 1 recipients per package would be exceeded");
  });
});

describe("PATCH and corrections", () => {
  it("changes a draft; moves a scheduled send with PACKAGE_SCHEDULED again (not for the same time); 400/422 otherwise", async () => {
    const s = await setup();
    setClock(() => new Date("2030-01-01T00:00:00Z"));
    const draft = (await fromTemplate(s.key, s.templateId)).body.data;
    const p = { packageId: draft.id };
    const renamed = await callJson<TBody>(patchRoute, { key: s.key, params: p, body: { title: "Lease v2" } });
    expect(renamed.body.data.title).toBe("Lease v2");
    expect((await callJson<TBody>(patchRoute, { key: s.key, params: p, body: { sendAt: "2030-02-01T00:00:00Z" } })).status).toBe(400);
    await callJson(sendRoute, { key: s.key, params: p, body: { sendAt: "2030-02-01T00:00:00Z" } });
    const moved = await callJson<TBody>(patchRoute, { key: s.key, params: p, body: { sendAt: "2030-03-01T00:00:00Z" } });
    expect(moved.body.data).toMatchObject({ status: "SCHEDULED", sendAt: "2030-03-01T00:00:00.000Z" });
    await callJson(patchRoute, { key: s.key, params: p, body: { sendAt: "2030-03-01T00:00:00Z", title: "Same time" } });
    const past = await callJson<TBody>(patchRoute, { key: s.key, params: p, body: { sendAt: "2029-12-31T00:00:00Z" } });
    expect(past.status).toBe(422);
    const events = await outbox(t.db, draft.id);
    expect(events.map((e) => [e.event, e.data.scheduledAt])).toEqual([
      ["PACKAGE_SCHEDULED", "2030-02-01T00:00:00.000Z"],
      ["PACKAGE_SCHEDULED", "2030-03-01T00:00:00.000Z"],
    ]);
    const sent = (await fromTemplate(s.key, s.templateId, { status: "sent" })).body.data;
    const late = await callJson<TBody>(patchRoute, { key: s.key, params: { packageId: sent.id }, body: { title: "Too late" } });
    expect(late.status).toBe(400);
  });

  it("update recipient: an invited recipient's new email invites again (new link, SESSION_SENT); a pending one or a name does not", async () => {
    const s = await setup();
    const pkg = (await fromTemplate(s.key, s.templateId, { status: "sent" })).body.data;
    const [first, second] = pkg.recipientSessions;
    const [before] = await t.db.select().from(recipientSessions).where(eq(recipientSessions.id, first!.id));
    const p = { packageId: pkg.id, sessionId: first!.id };
    const changed = await callJson<TBody>(updateRecipientRoute, { key: s.key, params: p, body: { email: "tina@example.org" } });
    expect(changed.status).toBe(200);
    expect(changed.body.data.recipientSessions[0]).toMatchObject({ email: "tina@example.org", status: "SENT" });
    const [after] = await t.db.select().from(recipientSessions).where(eq(recipientSessions.id, first!.id));
    expect(after!.tokenHash).not.toBe(before!.tokenHash);
    await callJson(updateRecipientRoute, { key: s.key, params: p, body: { name: "Tina T." } });
    await callJson(updateRecipientRoute, { key: s.key, params: { packageId: pkg.id, sessionId: second!.id }, body: { email: "lord@example.org" } });
    const events = await outbox(t.db, pkg.id);
    expect(events.map((e) => e.event)).toEqual(["PACKAGE_SENT", "SESSION_SENT", "SESSION_SENT"]);
    expect(events[2]!.data).toMatchObject({ sessionId: first!.id, recipientEmail: "tina@example.org" });
    const unknown = await callJson(updateRecipientRoute, { key: s.key, params: { packageId: pkg.id, sessionId: "rcs_unknown" }, body: { name: "x" } });
    expect(unknown.status).toBe(404);
  });
});

/*
 * Regression (integrator audit): adding, changing and removing a recipient moved only the session's updated_at,
 * so the package's updatedAt stayed put and a client syncing by it (lists sort newest updatedAt first) missed the
 * correction. Each of the three now moves the package's updatedAt in its transaction.
 */
describe("corrections move the package's updatedAt", () => {
  it("add, change and remove a recipient each set updatedAt to the correction's time and put the package first in the list", async () => {
    const s = await setup();
    const start = Date.parse("2030-03-01T09:00:00.000Z");
    const at = (minutes: number) => new Date(start + minutes * 60_000);
    setClock(() => at(0));
    const pkg = (await fromTemplate(s.key, s.templateId, { status: "sent" })).body.data;
    setClock(() => at(1));
    const newer = (await fromTemplate(s.key, s.templateId)).body.data;
    const firstListed = async () => (await callJson<TBody<{ packages: { id: string; updatedAt: string }[] }>>(listRoute, { key: s.key })).body.data.packages[0];
    expect(await firstListed()).toMatchObject({ id: newer.id });

    const steps: [number, number, () => Promise<{ status: number }>][] = [
      [10, 201, () => callJson(addRecipientRoute, { key: s.key, params: { packageId: pkg.id }, body: { email: "third@example.com" } })],
      [
        20,
        200,
        () => callJson(updateRecipientRoute, { key: s.key, params: { packageId: pkg.id, sessionId: pkg.recipientSessions[1]!.id }, body: { name: "Lars L." } }),
      ],
      [30, 200, () => callJson(removeRecipientRoute, { key: s.key, params: { packageId: pkg.id, sessionId: pkg.recipientSessions[1]!.id } })],
    ];
    for (const [minutes, status, correct] of steps) {
      setClock(() => at(minutes));
      expect((await correct()).status).toBe(status);
      const updatedAt = at(minutes).toISOString();
      expect((await callJson<TBody<{ updatedAt: string }>>(getRoute, { key: s.key, params: { packageId: pkg.id } })).body.data.updatedAt).toBe(updatedAt);
      expect(await firstListed()).toEqual(expect.objectContaining({ id: pkg.id, updatedAt }));
      // The list's newest comes from another package again before the next correction.
      setClock(() => at(minutes + 5));
      expect((await callJson(patchRoute, { key: s.key, params: { packageId: newer.id }, body: { title: `Newer ${minutes}` } })).status).toBe(200);
      expect(await firstListed()).toMatchObject({ id: newer.id });
    }
  });
});

describe("visibility and tenancy", () => {
  it("a key without canViewAllPackages sees a package shared with its issuer (get, list, send)", async () => {
    const s = await setup();
    const pkg = (await fromTemplate(s.key, s.templateId)).body.data;
    const narrow = await memberKey(s);
    expect((await callJson(getRoute, { key: narrow.key, params: { packageId: pkg.id } })).status).toBe(404);
    await t.db.insert(packageShares).values({ id: newId("psh"), packageId: pkg.id, userId: narrow.userId });
    expect((await callJson(getRoute, { key: narrow.key, params: { packageId: pkg.id } })).status).toBe(200);
    const list = await callJson<TBody<{ packages: { id: string }[] }>>(listRoute, { key: narrow.key });
    expect(list.body.data.packages.map((x) => x.id)).toEqual([pkg.id]);
    expect((await callJson(sendRoute, { key: narrow.key, params: { packageId: pkg.id }, body: {} })).status).toBe(200);
  });

  it("another workspace gets 404 on every public package route; the package's own key reaches each", async () => {
    const s = await setup();
    const pkg = (await fromTemplate(s.key, s.templateId)).body.data;
    const bodies: Record<string, unknown> = {
      updatePackage: { title: "x" },
      sendPackage: { sendAt: "2100-01-01T00:00:00Z" },
      voidPackage: {},
      transferPackage: { email: "nobody@example.com" },
      remindPackage: {},
      createSigningUrl: { sessionId: pkg.recipientSessions[0]!.id },
      addPackageDocument: { name: "x.pdf", fileSize: 10 },
      addRecipient: { email: "new@example.com" },
      updateRecipient: { name: "New name" },
    };
    const params = { packageId: pkg.id, documentId: s.documentId, sessionId: pkg.recipientSessions[1]!.id };
    const ops = allOperations.filter((op) => !op.internal && op.path.startsWith("/api/v1/packages/{packageId}"));
    // Deletions last, the package's own deletion at the very end: each own-key call really acts.
    const rank = (op: (typeof ops)[number]) => (op.method !== "DELETE" ? 0 : op.operationId === "deletePackage" ? 2 : 1);
    ops.sort((a, b) => rank(a) - rank(b));
    expect(ops.length).toBeGreaterThanOrEqual(20);
    // The package's documents are copied from the template's: name one of the package's own.
    const { documents } = await import("@/server/db/schema");
    const [doc] = await t.db.select().from(documents).where(eq(documents.packageId, pkg.id));
    params.documentId = doc!.id;
    for (const op of ops) {
      const file = `@/app${op.path.replace(/\{(\w+)\}/g, "[$1]")}/route`;
      const mod = (await import(/* @vite-ignore */ file)) as Record<string, TRouteHandler>;
      const route = mod[op.method];
      expect(route, `${op.operationId}: ${op.method} ${file}`).toBeDefined();
      const call = { params, ...(op.method === "GET" || op.method === "DELETE" ? {} : { body: bodies[op.operationId] ?? {} }) };
      await expectOtherWorkspaceGets404(t.db, route!, { org: s.org, ...call });
      const own = await callRoute(route!, { ...call, key: s.key });
      expect(own.status, `${op.operationId} with the package's own key`).not.toBe(404);
    }
  });
});

describe("atomicity", () => {
  it("a rolled-back action leaves no event: the audit insert fails inside the hold's transaction", async () => {
    const s = await setup();
    const pkg = (await fromTemplate(s.key, s.templateId, { status: "sent" })).body.data;
    await t.db.execute(sql`create or replace function test_fail_audit() returns trigger language plpgsql as $$
      begin if new.action = 'package.held' then raise exception 'audit store unavailable'; end if; return new; end $$`);
    await t.db.execute(sql`create trigger test_fail_audit before insert on audit_events for each row execute function test_fail_audit()`);
    try {
      const res = await callRoute(holdRoute, { key: s.key, params: { packageId: pkg.id } });
      expect(res.status).toBe(500);
    } finally {
      await t.db.execute(sql`drop trigger test_fail_audit on audit_events`);
    }
    expect(await eventNames(t.db, pkg.id)).toEqual(["PACKAGE_SENT", "SESSION_SENT"]);
    const got = await callJson<TBody>(getRoute, { key: s.key, params: { packageId: pkg.id } });
    expect(got.body.data.status).toBe("IN_PROGRESS");
  });

  it("bulk send: an unexpected error in one item is reported as failed (Internal error) and the others go out", async () => {
    const s = await setup();
    await t.db.execute(sql`create or replace function test_fail_package() returns trigger language plpgsql as $$
      begin if new.title = 'boom' then raise exception 'disk full'; end if; return new; end $$`);
    await t.db.execute(sql`create trigger test_fail_package before insert on packages for each row execute function test_fail_package()`);
    try {
      const res = await callJson<TBody<{ results: { index: number; status: string; error?: string }[] }>>(bulkRoute, {
        key: s.key,
        body: { templateId: s.templateId, items: [{ recipients }, { title: "boom", recipients }, { recipients }] },
      });
      expect(res.status).toBe(200);
      expect(res.body.data.results.map((r) => [r.index, r.status, r.error])).toEqual([
        [0, "sent", undefined],
        [1, "failed", "Internal error"],
        [2, "sent", undefined],
      ]);
    } finally {
      await t.db.execute(sql`drop trigger test_fail_package on packages`);
    }
  });
});

describe("audit trail", () => {
  it("op 26 exposes each event's hash and previous hash, and the package's chain verifies", async () => {
    const s = await setup();
    const pkg = (await fromTemplate(s.key, s.templateId, { status: "sent" })).body.data;
    await callJson(holdRoute, { key: s.key, params: { packageId: pkg.id } });
    const audit = await callJson<TBody<{ auditEvents: { action: string; hash: string; previousHash: string | null }[] }>>(auditRoute, {
      key: s.key,
      params: { packageId: pkg.id },
    });
    const events = audit.body.data.auditEvents;
    expect(events.length).toBeGreaterThanOrEqual(2);
    // Newest first: each event names the one listed after it.
    for (let i = 0; i < events.length - 1; i++) expect(events[i]!.previousHash).toBe(events[i + 1]!.hash);
    expect(events.at(-1)!.previousHash).toBeNull();
    expect(await verifyAuditChain(t.db, "package", pkg.id)).toEqual({ ok: true, head: events[0]!.hash });
  });
});
