/**
 * Protects the signing page's backend (the public /api/app/sign/{token} operations) through the real route
 * handlers on a real database: the token is the only credential (unknown, revoked and expired links are the
 * same 404), consent comes first and is recorded once, field values are validated by type and images by
 * content and size, finish enforces required fields and completes once under a double submit, decline ends
 * the package, and every state a link can reach answers its end page (hold, void, finished, not your turn).
 */
import { and, asc, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { POST as holdRoute } from "@/app/api/v1/packages/[packageId]/hold/route";
import { POST as voidRoute } from "@/app/api/v1/packages/[packageId]/void/route";
import { POST as signingUrlRoute } from "@/app/api/v1/packages/[packageId]/signing-url/route";
import { GET as viewRoute } from "@/app/api/app/sign/[token]/route";
import { POST as openRoute } from "@/app/api/app/sign/[token]/open/route";
import { POST as consentRoute } from "@/app/api/app/sign/[token]/consent/route";
import { POST as finishRoute } from "@/app/api/app/sign/[token]/finish/route";
import { POST as declineRoute } from "@/app/api/app/sign/[token]/decline/route";
import { PUT as fieldRoute } from "@/app/api/app/sign/[token]/fields/[fieldId]/route";
import { GET as getImageRoute } from "@/app/api/app/sign/[token]/fields/[fieldId]/image/route";
import { GET as documentRoute } from "@/app/api/app/sign/[token]/documents/[documentId]/file/route";
import { auditEvents, packageFields, recipientSessions } from "@/server/db/schema";
import { eventNames } from "@/server/domain/packages/test-support/fixtures";
import { setClock } from "@/server/lib/clock";
import { sha256Hex } from "@/server/lib/crypto";
import { newId } from "@/server/lib/ids";
import { useTestDb } from "@/server/test/db";
import { callJson, callRoute } from "@/server/test/http";
import { getFileStore } from "@/server/storage/get-file-store";
import { SIGNATURE_IMAGE_MAX_BYTES } from "./set-field-image";
import { putFieldImage, sentTwoSignerPackage, signingToken, stripPng } from "@/server/test/signing-calls";
import { sniffPng } from "./sniff-png";

const t = useTestDb();
const onPostgres = Boolean(process.env.DATABASE_URL);
const T0 = new Date("2031-03-01T10:00:00Z");

afterEach(() => setClock(undefined));

type TView = {
  state: "OPEN" | "CLOSED";
  reason?: string;
  fields?: TField[];
  documents?: { id: string }[];
  recipient?: { name: string | null; email: string | null };
  consentAt?: string | null;
};
type TField = { id: string; type: string; value: string | null; required: boolean; readOnly: boolean; hasImage: boolean; valueKind: string | null };
type TBody<T> = { data: T; error?: string; details?: Record<string, string[]> };

/** A sent two-signer package (tenant, then landlord) at T0. */
async function setup() {
  setClock(() => T0);
  return sentTwoSignerPackage(t.db);
}

const view = (token: string) => callJson<TBody<TView>>(viewRoute, { params: { token } });
const consent = (token: string, headers: Record<string, string> = {}) => callJson<TBody<{ consentAt: string }>>(consentRoute, { params: { token }, headers });
const put = (token: string, fieldId: string, value: string | null) => callJson<TBody<TField>>(fieldRoute, { params: { token, fieldId }, body: { value } });

const putImage = (token: string, fieldId: string, bytes: Buffer, kind?: string) => putFieldImage<TBody<TField>>(token, fieldId, bytes, kind);

async function fieldsOf(token: string): Promise<TField[]> {
  return (await view(token)).body.data.fields!;
}

describe("the link", () => {
  it("opens the recipient's own view; unknown, malformed, revoked and expired links are the same 404", async () => {
    const s = await setup();
    const token = await signingToken(s.key, s.packageId, s.first);
    const ok = await view(token);
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ state: "OPEN", recipient: { name: "Tina Tenant", email: "tenant@example.com" }, consentAt: null });
    expect(ok.body.data.documents).toHaveLength(1);
    // Only this recipient's fields: the tenant's signature and the merge field (filled by the sender, read-only).
    expect(ok.body.data.fields!.map((f) => [f.type, f.readOnly, f.value])).toEqual([
      ["signature", false, null],
      ["text", true, "Tina T."],
    ]);

    for (const bad of ["x".repeat(43), "short", "../../etc", "a".repeat(200)]) {
      const res = await view(bad);
      expect(res.status, bad).toBe(bad.length > 128 ? 422 : 404);
    }
    expect((await view("x".repeat(43))).body.error).toBe("This signing link is not valid");

    const newer = await signingToken(s.key, s.packageId, s.first);
    expect((await view(token)).status).toBe(404);
    expect((await view(newer)).status).toBe(200);

    setClock(() => new Date(T0.getTime() + 60 * 60_000));
    expect((await view(newer)).status).toBe(404);
  });

  it("stores only the token's SHA-256", async () => {
    const s = await setup();
    const token = await signingToken(s.key, s.packageId, s.first);
    const [row] = await t.db.select().from(recipientSessions).where(eq(recipientSessions.id, s.first));
    expect(row!.tokenHash).toBe(sha256Hex(token));
    expect(JSON.stringify(row)).not.toContain(token);
  });

  it("raises SESSION_OPENED on the first open only", async () => {
    const s = await setup();
    const token = await signingToken(s.key, s.packageId, s.first);
    expect((await callJson<TBody<{ opened: boolean }>>(openRoute, { params: { token } })).body.data.opened).toBe(true);
    expect((await callJson<TBody<{ opened: boolean }>>(openRoute, { params: { token } })).body.data.opened).toBe(false);
    expect((await eventNames(t.db, s.packageId)).filter((e) => e === "SESSION_OPENED")).toHaveLength(1);
  });

  it("streams the original document while the recipient can sign", async () => {
    const s = await setup();
    const token = await signingToken(s.key, s.packageId, s.first);
    const documentId = (await view(token)).body.data.documents![0]!.id;
    const res = await callRoute(documentRoute, { params: { token, documentId } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(await res.text()).toBe("%PDF-1.7\n%test\n");
    expect((await callRoute(documentRoute, { params: { token, documentId: "doc_other" } })).status).toBe(404);
  });
});

describe("consent and field values", () => {
  it("refuses values before consent; records consent once with time, address and user agent", async () => {
    const s = await setup();
    const token = await signingToken(s.key, s.packageId, s.first);
    const sig = (await fieldsOf(token)).find((f) => f.type === "signature")!;
    const early = await put(token, sig.id, "Tina Tenant");
    expect(early.status).toBe(409);
    expect(early.body.error).toBe("Agree to sign electronically before filling in or finishing");

    const first = await consent(token, { "user-agent": "Phone/1.0" });
    expect(first.body.data.consentAt).toBe(T0.toISOString());
    setClock(() => new Date(T0.getTime() + 5_000));
    expect((await consent(token, { "user-agent": "Other" })).body.data.consentAt).toBe(T0.toISOString());
    const [row] = await t.db.select().from(recipientSessions).where(eq(recipientSessions.id, s.first));
    expect(row).toMatchObject({ consentAt: T0, clientAddress: "127.0.0.1", userAgent: "Phone/1.0" });
    const audits = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.subjectId, s.packageId), eq(auditEvents.action, "session.consented")));
    expect(audits).toHaveLength(1);
  });

  /**
   * Protects the certificate's "times with their zone": the signer's browser sends its IANA zone with consent
   * and finish; it is checked with Intl (a malformed or unknown name is 422 on `timeZone` and records nothing),
   * stored on the session, and the zone sent at finish wins.
   */
  it("records the browser's time zone at consent and finish; refuses a malformed or unknown zone with 422", async () => {
    const s = await setup();
    const token = await signingToken(s.key, s.packageId, s.first);
    for (const timeZone of ["Mars/Olympus_Mons", "Europe/Paris; drop table", "x".repeat(65)]) {
      const bad = await callJson<TBody<unknown>>(consentRoute, { params: { token }, query: { timeZone } });
      expect(bad.status, timeZone).toBe(422);
      expect(Object.keys(bad.body.details ?? {})).toEqual(["timeZone"]);
    }
    const [untouched] = await t.db.select().from(recipientSessions).where(eq(recipientSessions.id, s.first));
    expect(untouched).toMatchObject({ consentAt: null, timeZone: null });

    expect((await callJson(consentRoute, { params: { token }, query: { timeZone: "Asia/Kolkata" } })).status).toBe(200);
    let [row] = await t.db.select().from(recipientSessions).where(eq(recipientSessions.id, s.first));
    expect(row!.timeZone).toBe("Asia/Kolkata");
    const [audit] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.subjectId, s.packageId), eq(auditEvents.action, "session.consented")));
    expect(audit!.data).toMatchObject({ timeZone: "Asia/Kolkata" });

    const sig = (await fieldsOf(token)).find((f) => f.type === "signature")!;
    await put(token, sig.id, "Tina Tenant");
    expect((await callJson(finishRoute, { params: { token }, query: { timeZone: "nope/nope" } })).status).toBe(422);
    const done = await callJson<TBody<TView>>(finishRoute, { params: { token }, query: { timeZone: "America/Sao_Paulo" } });
    expect(done.body.data).toMatchObject({ state: "CLOSED", reason: "FINISHED" });
    [row] = await t.db.select().from(recipientSessions).where(eq(recipientSessions.id, s.first));
    expect(row).toMatchObject({ status: "COMPLETED", timeZone: "America/Sao_Paulo" });
  });

  it("validates typed values by field type and refuses other recipients', the sender's and date fields", async () => {
    const s = await setup();
    const token = await signingToken(s.key, s.packageId, s.first);
    await consent(token);
    const fields = await fieldsOf(token);
    const sig = fields.find((f) => f.type === "signature")!;
    const merged = fields.find((f) => f.readOnly)!;

    const typed = await put(token, sig.id, "  Анна Иванова ");
    expect(typed.status).toBe(200);
    expect(typed.body.data).toMatchObject({ value: "Анна Иванова", valueKind: "typed" });
    expect((await put(token, sig.id, "李小龙")).body.data.value).toBe("李小龙");
    expect((await put(token, sig.id, "x".repeat(121))).body).toMatchObject({ error: "At most 120 characters" });
    expect((await put(token, sig.id, "a\u0007b")).status).toBe(422);
    expect((await put(token, sig.id, "one\ntwo")).body.details).toEqual({ value: ["One line only"] });
    expect((await put(token, merged.id, "changed")).status).toBe(409);

    const [other] = await t.db.select().from(packageFields).where(eq(packageFields.sessionId, s.second));
    expect((await put(token, other!.id, "mine now")).status).toBe(404);
    expect((await put(token, "pfl_missing", "x")).status).toBe(404);

    // A checkbox and a date field of this session, to check their rules.
    const [box] = await t.db.update(packageFields).set({ type: "checkbox" }).where(eq(packageFields.id, merged.id)).returning();
    await t.db.update(packageFields).set({ mergeFieldKey: null, value: null }).where(eq(packageFields.id, box!.id));
    expect((await put(token, box!.id, "maybe")).status).toBe(422);
    expect((await put(token, box!.id, "true")).body.data.value).toBe("true");
    await t.db.update(packageFields).set({ type: "date" }).where(eq(packageFields.id, box!.id));
    expect((await put(token, box!.id, "2031-01-01")).body.error).toBe("The date is filled in when you finish");
  });

  it("keeps a drawn PNG in the file store; refuses non-PNG content, a broken PNG, an oversized body and a text field", async () => {
    const s = await setup();
    const token = await signingToken(s.key, s.packageId, s.first);
    await consent(token);
    const fields = await fieldsOf(token);
    const sig = fields.find((f) => f.type === "signature")!;

    const bytes = stripPng(3);
    const stored = await putImage(token, sig.id, bytes);
    expect(stored.status).toBe(200);
    expect(stored.body.data).toMatchObject({ hasImage: true, valueKind: "drawn", value: null });
    const [row] = await t.db.select().from(packageFields).where(eq(packageFields.id, sig.id));
    const kept = await (await getFileStore()).stat(row!.valueStorageKey!);
    expect(kept).toMatchObject({ size: bytes.length, contentType: "image/png" });
    const back = await callRoute(getImageRoute, { params: { token, fieldId: sig.id } });
    expect(Buffer.from(await back.arrayBuffer()).equals(bytes)).toBe(true);

    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, ...Buffer.alloc(64)]);
    expect((await putImage(token, sig.id, jpeg)).body.error).toBe("The signature image must be a PNG");
    const broken = Buffer.from(bytes);
    broken[broken.length - 20]! ^= 0xff;
    expect((await putImage(token, sig.id, broken)).status).toBe(422);
    expect((await putImage(token, sig.id, Buffer.concat([bytes, Buffer.from("trailing")]))).status).toBe(422);
    const huge = stripPng(Math.ceil(SIGNATURE_IMAGE_MAX_BYTES / 4) + 10, true);
    expect((await putImage(token, sig.id, huge)).status).toBe(413);
    const merged = fields.find((f) => f.type === "text")!;
    await t.db.update(packageFields).set({ mergeFieldKey: null }).where(eq(packageFields.id, merged.id));
    expect((await putImage(token, merged.id, bytes)).body.error).toBe("Only a signature or initials field takes an image");

    // A typed signature replaces the image, and the stored file goes with it.
    await put(token, sig.id, "Tina");
    expect(await (await getFileStore()).stat(row!.valueStorageKey!)).toBeNull();
  });

  it("sniffPng accepts a real PNG and refuses a wrong colour type and zero size", () => {
    expect(sniffPng(stripPng(5))).toEqual({ width: 5, height: 1 });
    const wrong = stripPng(1);
    wrong[25] = 5;
    expect(() => sniffPng(wrong)).toThrow();
    expect(() => sniffPng(new Uint8Array())).toThrow();
  });
});

describe("finish and decline", () => {
  it("enforces required fields, fills the date, completes once under a double submit, then invites the next", async () => {
    const s = await setup();
    const token = await signingToken(s.key, s.packageId, s.first);
    // Before its turn, the second recipient has no link (409), and a link to a waiting session reads "not your turn".
    const early = await callJson(signingUrlRoute, { key: s.key, params: { packageId: s.packageId }, body: { sessionId: s.second } });
    expect(early.status).toBe(409);
    await t.db
      .update(recipientSessions)
      .set({ tokenHash: sha256Hex("w".repeat(43)) })
      .where(eq(recipientSessions.id, s.second));
    expect((await view("w".repeat(43))).body.data).toMatchObject({ state: "CLOSED", reason: "NOT_YOUR_TURN" });

    expect((await callJson(finishRoute, { params: { token } })).status).toBe(409);
    await consent(token);
    const sig = (await fieldsOf(token)).find((f) => f.type === "signature")!;
    const missing = await callJson<TBody<TView>>(finishRoute, { params: { token } });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe("Fill in every required field before finishing");

    const [date] = await t.db
      .update(packageFields)
      .set({ type: "date", mergeFieldKey: null, value: null, required: true })
      .where(and(eq(packageFields.sessionId, s.first), eq(packageFields.type, "text")))
      .returning();
    await put(token, sig.id, "Tina Tenant");
    const both = await Promise.all([callJson<TBody<TView>>(finishRoute, { params: { token } }), callJson<TBody<TView>>(finishRoute, { params: { token } })]);
    for (const res of both) expect(res.body.data).toMatchObject({ state: "CLOSED", reason: "FINISHED" });
    expect((await eventNames(t.db, s.packageId)).filter((e) => e === "SESSION_COMPLETED")).toHaveLength(1);
    const [filled] = await t.db.select().from(packageFields).where(eq(packageFields.id, date!.id));
    expect(filled!.value).toBe("2031-03-01");
    // The finished link keeps showing its end page; it can change nothing.
    expect((await view(token)).body.data).toMatchObject({ state: "CLOSED", reason: "FINISHED" });
    expect((await put(token, sig.id, "changed")).status).toBe(409);

    const second = await signingToken(s.key, s.packageId, s.second);
    await consent(second);
    const sig2 = (await fieldsOf(second)).find((f) => f.type === "signature")!;
    await put(second, sig2.id, "李小龙");
    expect((await callJson<TBody<TView>>(finishRoute, { params: { token: second } })).body.data).toMatchObject({ state: "CLOSED", reason: "COMPLETED" });
    expect((await view(token)).body.data).toMatchObject({ reason: "COMPLETED" });
  });

  /**
   * Protects "a refused request writes nothing": a finish refused for a missing required field (400) leaves the
   * session's time zone, the date and the empty name field as they were, and adds no audit or outbox row.
   */
  it("a refused finish (a required field missing) writes nothing: no time zone, no filled date or name, no audit or event", async () => {
    const s = await setup();
    const token = await signingToken(s.key, s.packageId, s.first);
    expect((await callJson(consentRoute, { params: { token }, query: { timeZone: "Asia/Kolkata" } })).status).toBe(200);
    const [sig] = await t.db
      .select()
      .from(packageFields)
      .where(and(eq(packageFields.sessionId, s.first), eq(packageFields.type, "signature")));
    const empty = { required: false, value: null, valueKind: null, valueSetAt: null };
    await t.db.insert(packageFields).values([
      { ...sig!, ...empty, id: newId("pfl"), type: "date" },
      { ...sig!, ...empty, id: newId("pfl"), type: "name" },
    ]);
    const snapshot = async () => ({
      session: (await t.db.select().from(recipientSessions).where(eq(recipientSessions.id, s.first)))[0],
      fields: await t.db.select().from(packageFields).where(eq(packageFields.sessionId, s.first)).orderBy(asc(packageFields.id)),
      audit: (await t.db.select({ action: auditEvents.action }).from(auditEvents).where(eq(auditEvents.subjectId, s.packageId))).map((a) => a.action).sort(),
      events: await eventNames(t.db, s.packageId),
    });
    const before = await snapshot();
    expect(before.session!.timeZone).toBe("Asia/Kolkata");

    setClock(() => new Date("2031-03-01T10:05:00Z"));
    const refused = await callJson<TBody<unknown>>(finishRoute, { params: { token }, query: { timeZone: "America/Sao_Paulo" } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe("Fill in every required field before finishing");
    expect(await snapshot()).toEqual(before);
  });

  it("declines with a reason; the package ends and every link says so", async () => {
    const s = await setup();
    const token = await signingToken(s.key, s.packageId, s.first);
    expect((await callJson(declineRoute, { params: { token }, body: { reason: "  " } })).status).toBe(422);
    const declined = await callJson<TBody<TView>>(declineRoute, { params: { token }, body: { reason: "Wrong rent" } });
    expect(declined.body.data).toMatchObject({ state: "CLOSED", reason: "DECLINED" });
    expect((await callJson<TBody<TView>>(declineRoute, { params: { token }, body: { reason: "again" } })).body.data).toMatchObject({ reason: "DECLINED" });
    expect((await eventNames(t.db, s.packageId)).slice(-2)).toEqual(["SESSION_DECLINED", "PACKAGE_DECLINED"]);
    const [row] = await t.db.select().from(recipientSessions).where(eq(recipientSessions.id, s.first));
    expect(row!.declineReason).toBe("Wrong rent");
    expect((await callJson(finishRoute, { params: { token } })).status).toBe(409);
  });

  it("shows the hold and void pages and refuses changes while held", async () => {
    const s = await setup();
    const token = await signingToken(s.key, s.packageId, s.first);
    await consent(token);
    const sig = (await fieldsOf(token)).find((f) => f.type === "signature")!;
    await callJson(holdRoute, { key: s.key, params: { packageId: s.packageId } });
    expect((await view(token)).body.data).toMatchObject({ state: "CLOSED", reason: "ON_HOLD" });
    const held = await put(token, sig.id, "Tina");
    expect(held.status).toBe(409);
    expect(held.body.error).toBe("The sender has put this package on hold; you can sign once it is resumed");
    expect((await callRoute(documentRoute, { params: { token, documentId: "doc_any" } })).status).toBe(409);
    await callJson(voidRoute, { key: s.key, params: { packageId: s.packageId }, body: { reason: "typo" } });
    expect((await view(token)).body.data).toMatchObject({ state: "CLOSED", reason: "VOIDED" });
  });
});

describe.runIf(onPostgres)("on PostgreSQL", () => {
  it("two finishes racing on separate connections complete the session once", async () => {
    const s = await setup();
    const token = await signingToken(s.key, s.packageId, s.first);
    await consent(token);
    const sig = (await fieldsOf(token)).find((f) => f.type === "signature")!;
    await put(token, sig.id, "Tina");
    const results = await Promise.all(Array.from({ length: 4 }, () => callJson<TBody<TView>>(finishRoute, { params: { token } })));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect((await eventNames(t.db, s.packageId)).filter((e) => e === "SESSION_COMPLETED")).toHaveLength(1);
  });
});
