/**
 * Property-style: every operation with a body (public and internal) refuses a one-field mistake with a 422
 * whose `details` name exactly that field's dotted path, and say what is wrong. The valid bodies and the
 * mutations are generated from the operations' own schemas (test-support/schema-mutations.ts): for each field
 * a wrong type, a value below a minimum or above a maximum, a non-integer, a bad format, a value not among the
 * options, and its removal when it is required. Validation runs through `parseOrThrow`, as the route wrapper
 * does; the two documents operations named in issue 24 are also called end to end.
 *
 * Regression (issue 24 item 7): a union body (`POST …/documents`) answered every mistake with
 * `{"body":["Invalid input"]}`, and `fileSize: -5` with "The file is empty".
 */
import { describe, expect, it } from "vitest";
import * as packageDocuments from "@/app/api/v1/packages/[packageId]/documents/route";
import { POST as createPackageRoute } from "@/app/api/v1/packages/route";
import * as templateDocuments from "@/app/api/v1/templates/[templateId]/documents/route";
import { createTestTemplate } from "@/server/domain/documents/test-support/fixtures";
import type { TOperation } from "@/server/domain/operation";
import { allOperations } from "@/server/http/operations";
import { AppError, type TErrorDetails } from "@/server/lib/errors";
import { parseOrThrow } from "@/server/lib/parse";
import { useTestDb } from "@/server/test/db";
import { createTestKey, createTestOrg } from "@/server/test/factories";
import { callJson } from "@/server/test/http";
import { exampleOf, mutationsOf, type TMutation } from "./test-support/schema-mutations";

/** Valid bodies for the operations whose generated body their schema refuses (a refinement the walk cannot see). */
const VALID_BODIES: Record<string, unknown[]> = {
  appCreateApiKey: [{ name: "CI", roleId: "role_1", workspaceId: "ws_1", expiresOn: "2030-12-31", timeZone: "Europe/London" }],
  appSetIpAllowlist: [{ entries: ["203.0.113.0/24"] }],
  setEmbedOrigins: [{ origins: ["https://app.example.com"] }],
  appSetEmbedOrigins: [{ origins: ["https://app.example.com"] }],
  transferPackage: [{ userId: "usr_1" }, { email: "new-owner@example.com" }],
  appTransferPackage: [{ userId: "usr_1" }, { email: "new-owner@example.com" }],
  appReplayDeliveries: [{ deliveryId: "dlv_1" }, { from: "2030-01-01T09:00:00.000Z", to: "2030-01-02T09:00:00.000Z" }],
};

type TSchema = NonNullable<TOperation["body"]>;

/**
 * A recipient's `authentication` takes `accessCode` only with ACCESS_CODE (a refinement the walk cannot see):
 * the generated `{ method: "NONE", accessCode }` becomes ACCESS_CODE, wherever it sits in the body.
 */
function withRefinements(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withRefinements);
  if (typeof value !== "object" || value === null) return value;
  const entries = Object.entries(value).map(([k, v]) => [k, withRefinements(v)] as const);
  const out = Object.fromEntries(entries) as Record<string, unknown>;
  if ("accessCode" in out && "method" in out) out.method = "ACCESS_CODE";
  return out;
}

/** One valid body per form of the body (each option of a union), generated unless given above. */
function validBodies(op: TOperation): unknown[] {
  if (VALID_BODIES[op.operationId]) return VALID_BODIES[op.operationId]!;
  const body = op.body as TSchema;
  const d = body._zod.def as { type: string; options?: TSchema[] };
  return (d.type === "union" ? d.options!.map((o) => exampleOf(o)) : [exampleOf(body)]).map(withRefinements);
}

function detailsOf(schema: TSchema, value: unknown): TErrorDetails | "accepted" {
  try {
    parseOrThrow(schema, value, "body");
    return "accepted";
  } catch (err) {
    if (err instanceof AppError && err.status === 422) return err.details ?? {};
    throw err;
  }
}

const withBody = allOperations.filter((op) => op.body);

describe("every body field's mistake is a 422 at its own dotted path (generated from the schemas)", () => {
  it("covers every operation with a body", () => {
    expect(withBody.length).toBeGreaterThan(50);
  });

  it.each(withBody.map((op) => [op.operationId, op] as const))("%s", (_id, op) => {
    const schema = op.body as TSchema;
    const mutations: TMutation[] = [];
    for (const valid of validBodies(op)) {
      expect(detailsOf(schema, valid), `the valid body ${JSON.stringify(valid)}`).toBe("accepted");
      mutations.push(...mutationsOf(schema, valid, "body"));
    }
    expect(mutations.length).toBeGreaterThan(0);
    const wrong: string[] = [];
    for (const m of mutations) {
      const details = detailsOf(schema, m.value);
      const label = `${m.kind} at ${m.path}: ${JSON.stringify(m.value)} → ${JSON.stringify(details)}`;
      const keys = details === "accepted" ? [] : Object.keys(details);
      if (details === "accepted" || keys.length !== 1 || ![m.path, ...(m.alsoAccepted ?? [])].includes(keys[0]!)) {
        wrong.push(label);
        continue;
      }
      const messages = details[keys[0]!]!;
      // Each says what is wrong: never zod's bare "Invalid input"; a wrong type or a missing field names the
      // expected type (a coerced field keeps its own message).
      if (messages.length === 0 || messages.includes("Invalid input")) wrong.push(label);
      if (m.kind === "wrong type" && !m.coerced && !messages.some((text) => /expected \w+/i.test(text))) wrong.push(label);
      if (m.kind === "missing" && !m.coerced && !messages.some((text) => /^Required: expected /.test(text))) wrong.push(label);
    }
    expect(wrong).toEqual([]);
  });
});

describe("the documents operations' union body, end to end", () => {
  const t = useTestDb();

  async function setup() {
    const org = await createTestOrg(t.db);
    const key = (await createTestKey(t.db, org)).value;
    const templateId = await createTestTemplate(t.db, org);
    const pkg = await callJson<{ data: { id: string } }>(createPackageRoute, { key, body: { title: "NDA", recipients: [{ email: "a@example.com" }] } });
    expect(pkg.status).toBe(201);
    return { key, templateId, packageId: pkg.body.data.id };
  }

  it.each([
    ["a wrong type of fileSize", { name: "a.pdf", fileSize: "12" }, { fileSize: ["Invalid input: expected number, received string"] }],
    ["a negative fileSize", { name: "a.pdf", fileSize: -5 }, { fileSize: ["A size in bytes cannot be negative"] }],
    ["an empty file", { name: "a.pdf", fileSize: 0 }, { fileSize: ["The file is empty"] }],
    ["a fractional fileSize", { name: "a.pdf", fileSize: 1.5 }, { fileSize: ["Invalid input: expected int, received number"] }],
    ["a wrong type of name", { name: 5, fileSize: 10 }, { name: ["Invalid input: expected string, received number"] }],
    ["a missing name", { fileSize: 10 }, { name: ["Required: expected string"] }],
    ["an image type", { name: "a.png", fileSize: 10, contentType: "image/png" }, { contentType: ["PDF or DOCX only"] }],
    ["a wrong type of contentType", { name: "a.pdf", fileSize: 10, contentType: 7 }, { contentType: ["PDF or DOCX only"] }],
    ["a wrong type of libraryDocumentId", { libraryDocumentId: 5 }, { libraryDocumentId: ["Invalid input: expected string, received number"] }],
    ["an empty libraryDocumentId", { libraryDocumentId: "", name: "NDA" }, { libraryDocumentId: [expect.stringMatching(/^Too small/)] }],
    ["an empty body", {}, { name: ["Required: expected string"], fileSize: ["Required: expected number"] }],
    ["a body that is not an object", ["a.pdf"], { body: ["Invalid input: expected object, received array"] }],
  ])("%s: 422 at its path, on both", async (_label, body, details) => {
    const s = await setup();
    for (const res of [
      await callJson(templateDocuments.POST, { key: s.key, params: { templateId: s.templateId }, body }),
      await callJson(packageDocuments.POST, { key: s.key, params: { packageId: s.packageId }, body }),
    ]) {
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ error: "Validation failed", details });
    }
  });
});
