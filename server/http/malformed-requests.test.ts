/**
 * The generated malformed-request run of issue 24, in a bounded, seeded form: thousands of requests across
 * EVERY operation of the route table (both doors) and the upload URL, each malformed in one way, and not one
 * may answer 5xx; every 4xx must be the spec's JSON error body `{ error: string, details?: { path: string[] } }`.
 *
 * What is sent, per operation (a deterministic PRNG picks among the variants, so a failure replays exactly):
 *  - its params (real ids of one workspace's resources) each replaced by an ill-formed string (a lone
 *    surrogate, a NUL…: 422 at the param's name), an empty or huge one, a number-like or path-like one;
 *  - its query's fields, each given bad or huge numbers, raw bad percent-encoding, repeated keys, unknown keys;
 *  - its body generated valid from its own schema (test-support/schema-mutations.ts), then: every string of
 *    it made ill-formed (a 422 naming exactly that dotted path), every leaf given another type or a huge,
 *    fractional or negative number, objects turned into arrays, keys made ill-formed; and the whole body
 *    replaced by broken JSON, bytes that are not UTF-8, deep nesting, prototype keys, non-objects…;
 *  - its headers: another content type, a foreign origin, a bad key, workspace, Idempotency-Key or cookie;
 *  - and, through our real HTTP server (server/http-server.ts) in front of a stand-in for Next that decodes
 *    path params the way Next does (a failure: Next's plain-text 500), every param position with a segment
 *    that is not percent-encoded UTF-8 (`%ff`, `%`, a truncated or overlong sequence, an encoded surrogate):
 *    a JSON 400 before the route.
 *
 * The domain is real (PGlite, or PostgreSQL with DATABASE_URL, where jsonb refuses a lone surrogate).
 */
import type http from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setSessionLookup } from "@/server/auth/app-route";
import { customFieldDefinitions, organisations, packageFields } from "@/server/db/schema";
import { makePdf } from "@/server/domain/documents/test-support/fixtures";
import type { TOperation } from "@/server/domain/operation";
import { createActiveTemplate } from "@/server/domain/packages/test-support/fixtures";
import { insertSigningGroup } from "@/server/domain/templates/test-support/fixtures";
import { createEndpoint } from "@/server/domain/webhooks/endpoints/create-endpoint";
import { setResolver } from "@/server/domain/webhooks/delivery/resolver";
import { createHttpServer } from "@/server/http-server";
import { allOperations } from "@/server/http/operations";
import type { TRouteHandler } from "@/server/http/route";
import { MALFORMED_PATH_MESSAGE } from "@/server/http/unrouted-api";
import { uploadRoute } from "@/server/http/upload-route";
import { ILL_FORMED_MESSAGE, RefusedItem } from "@/server/lib/parse";
import { getFileStore } from "@/server/storage/get-file-store";
import { createTestMember } from "@/server/test/actors";
import { workspaceActor } from "@/server/test/actors";
import { useTestDb } from "@/server/test/db";
import { createTestKey, createTestOrg, createTestRole } from "@/server/test/factories";
import { BAD_SEGMENTS, ILL_FORMED, nodesOf, prng, rawBodies, replaceAt, WEIRD_PARAMS, WEIRD_QUERY, WEIRD_VALUES } from "./test-support/malformed-values";
import { APP_ORIGIN, loadRoutes, nextStandIn, rawRequest, rawTypesOf, send, urlPathOf, type TAnswer, type TSend } from "./test-support/route-calls";
import { exampleOf } from "./test-support/schema-mutations";

const t = useTestDb();

/**
 * Set MALFORMED_SEED (a number) to explore other requests; a failure names the seed and the request, so it
 * replays exactly. CI runs the fixed seed.
 */
const SEED = process.env.MALFORMED_SEED ? Number(process.env.MALFORMED_SEED) : 0x24_2026;

// ---------------------------------------------------------------------------------------------------------
// The workspace every request acts in: one of each resource, so that valid-looking requests go deep.

type TWorld = { key: string; owner: { userId: string; organisationId: string }; ids: Record<string, string> };

async function buildWorld(routes: Map<string, TRouteHandler>): Promise<TWorld> {
  const org = await createTestOrg(t.db);
  const key = (await createTestKey(t.db, org)).value;
  const otherKey = await createTestKey(t.db, org, { name: "to revoke" });
  const member = await createTestMember(t.db, org, org.roleIds.sender);
  const roleId = await createTestRole(t.db, org.organisationId, { canSendPackages: true });
  const tpl = await createActiveTemplate(t.db, org);
  await (await getFileStore()).put("files/lease", Readable.from([await makePdf()]), { contentType: "application/pdf" });
  const call = async (operationId: string, params: Record<string, string>, body: unknown) => {
    const res = await send(routes.get(operationId)!, { params, query: "", body: JSON.stringify(body), key });
    const json = JSON.parse(res.text) as { data: Record<string, unknown> };
    if (res.status >= 300) throw new Error(`${operationId}: ${res.status} ${res.text}`);
    return json.data;
  };
  const recipients = [
    { email: "tenant@example.com", roleIndex: 0 },
    { email: "landlord@example.com", roleIndex: 1 },
  ];
  const draft = await call("createPackageFromTemplate", {}, { templateId: tpl.templateId, title: "Draft", recipients });
  const sent = await call("createPackageFromTemplate", {}, { templateId: tpl.templateId, title: "Sent", recipients, status: "sent" });
  const sessions = sent.recipientSessions as { id: string }[];
  const link = await call("createSigningUrl", { packageId: sent.id as string }, { sessionId: sessions[0]!.id });
  const token = (link.url as string).split("/sign/")[1]!;
  const [field] = await t.db
    .select({ id: packageFields.id })
    .from(packageFields)
    .where(and(eq(packageFields.sessionId, sessions[0]!.id)));
  const sentDocs = sent.documents as { id: string }[];
  const draftDocs = draft.documents as { id: string }[];
  const [customField] = await t.db
    .select({ id: customFieldDefinitions.id })
    .from(customFieldDefinitions)
    .where(eq(customFieldDefinitions.organisationId, org.organisationId));
  const endpoint = await createEndpoint(t.db, workspaceActor(org.organisationId, org.workspaceId), { url: "https://hooks.example.com/foliosign" });
  const groupId = await insertSigningGroup(t.db, org, org.workspaceId);
  const templateFields = (await call("listTemplateFields", { templateId: tpl.templateId }, undefined)) as unknown;
  return {
    key,
    owner: { userId: org.userId, organisationId: org.organisationId },
    ids: {
      templateId: tpl.templateId,
      templateDocumentId: tpl.documentId,
      templateFieldId: (templateFields as { id: string }[])[0]?.id ?? "tfl_fake",
      roleIndex: "0",
      draftPackageId: draft.id as string,
      draftDocumentId: draftDocs[0]?.id ?? "doc_fake",
      draftSessionId: (draft.recipientSessions as { id: string }[])[0]!.id,
      sentPackageId: sent.id as string,
      sentDocumentId: sentDocs[0]?.id ?? "doc_fake",
      token,
      signingFieldId: field?.id ?? "pfl_fake",
      userId: member.user.id,
      keyId: otherKey.id,
      roleId,
      customFieldId: customField?.id ?? "cfd_fake",
      endpointId: endpoint.id,
      groupId,
      workspaceId: org.workspaceId,
    },
  };
}

/** A param's real value for an operation (which document, field or package depends on the path). */
function paramValue(world: TWorld, op: TOperation, name: string): string {
  const ids = world.ids;
  const draftOp = op.method === "PATCH" || /\/(documents|recipients)|\/send$/.test(op.path) || (op.method === "DELETE" && op.path.endsWith("{packageId}"));
  switch (name) {
    case "packageId":
      return draftOp ? ids.draftPackageId! : ids.sentPackageId!;
    case "documentId":
      if (op.path.includes("/templates/")) return ids.templateDocumentId!;
      if (op.path.includes("/sign/")) return ids.sentDocumentId!;
      return draftOp ? ids.draftDocumentId! : ids.sentDocumentId!;
    case "fieldId":
      return op.path.includes("/sign/") ? ids.signingFieldId! : ids.templateFieldId!;
    case "sessionId":
      return ids.draftSessionId!;
    default:
      return ids[name] ?? `${name}_fake`;
  }
}

/** What the spec requires of every refusal: JSON `{ error: string, details?: { <path>: string[] } }`. */
function shapeProblem(answer: TAnswer): string | null {
  if (answer.status >= 500) return `a ${answer.status}`;
  if (answer.status < 400) return null;
  if (!/^application\/json/.test(answer.contentType)) return `a ${answer.status} of ${answer.contentType || "no content type"}`;
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    return `a ${answer.status} whose body is not JSON`;
  }
  if (!body || typeof body !== "object" || Array.isArray(body)) return "an error body that is not an object";
  const { error, details, ...rest } = body as Record<string, unknown>;
  if (typeof error !== "string" || error === "") return "no `error` string";
  if (Object.keys(rest).length > 0) return `extra keys ${Object.keys(rest).join(", ")}`;
  if (details !== undefined) {
    if (!details || typeof details !== "object" || Array.isArray(details)) return "`details` is not an object";
    for (const [k, v] of Object.entries(details)) {
      if (!Array.isArray(v) || v.length === 0 || v.some((m) => typeof m !== "string")) return `details.${k} is not a list of messages`;
    }
  }
  return null;
}

function holdsRefusedItem(value: unknown): boolean {
  if (value instanceof RefusedItem) return true;
  if (Array.isArray(value)) return value.some(holdsRefusedItem);
  return typeof value === "object" && value !== null && Object.values(value).some(holdsRefusedItem);
}

/**
 * A batch whose items are checked one by one (bulk send) answers 200 with the item's failure instead of a 422:
 * `items.<i>.<path>` must then be named by the failed result at index i, at `<path>` within the item.
 */
function namedByItsItem(answer: TAnswer, mustName: string): boolean {
  const at = /^items\.(\d+)\.(.+)$/.exec(mustName);
  if (!at || answer.status !== 200) return false;
  const { data } = JSON.parse(answer.text) as { data?: { results?: { index: number; status: string; details?: Record<string, string[]> }[] } };
  const result = data?.results?.find((r) => r.index === Number(at[1]));
  return result?.status === "failed" && (result.details?.[at[2]!]?.length ?? 0) > 0;
}

// ---------------------------------------------------------------------------------------------------------
// The cases of one operation.

type TCase = TSend & { label: string; /** The dotted path a 422 must name (an ill-formed string put there). */ mustName?: string };

function casesOf(op: TOperation, world: TWorld, rnd: ReturnType<typeof prng>): TCase[] {
  const params = Object.fromEntries(Object.keys(op.params?.shape ?? {}).map((name) => [name, paramValue(world, op, name)]));
  const rawTypes = rawTypesOf(op);
  const example = op.body ? exampleOf(op.body) : undefined;
  // A bulk send checks its items one by one only once the template is found: the world's real template lets
  // the run reach them (an ill-formed string in an item is then that item's failure, see mustName below).
  if (op.operationId === "bulkSendPackages") (example as Record<string, unknown>).templateId = world.ids.templateId;
  // Valid means valid throughout: an item of a batch that its own check refuses does not count.
  const parsedExample = op.body?.safeParse(example);
  const exampleValid = parsedExample?.success === true && !holdsRefusedItem(parsedExample.data);
  const queryExample = op.query ? (exampleOf(op.query) as Record<string, unknown>) : {};
  const baseQuery = new URLSearchParams(
    Object.entries(queryExample).flatMap(([k, v]) => (v === undefined ? [] : Array.isArray(v) ? v.map((x) => [k, String(x)]) : [[k, String(v)]])),
  ).toString();
  // A raw body (a PDF, a PNG) that parses is inspected in a child process, a second each: the generated
  // requests send none (400), and a few whole bodies below send bytes.
  const baseBody: string | Uint8Array | undefined = op.body
    ? JSON.stringify(example)
    : rawTypes.length || op.method === "GET" || op.method === "DELETE"
      ? undefined
      : "{}";
  const base: TCase = { label: "as generated", params, query: baseQuery, body: baseBody, key: world.key };
  const cases: TCase[] = [base];

  // Params: each ill-formed (a 422 naming it), and nonsense that decodes.
  for (const name of Object.keys(params)) {
    for (const bad of rnd.sample(ILL_FORMED("p"), 2))
      cases.push({ ...base, label: `param ${name} ill-formed ${JSON.stringify(bad)}`, params: { ...params, [name]: bad }, mustName: name });
    for (const weird of rnd.sample(WEIRD_PARAMS, 3))
      cases.push({ ...base, label: `param ${name} = ${JSON.stringify(weird.slice(0, 40))}`, params: { ...params, [name]: weird } });
  }

  // Query: each field given bad values, raw; repeated and unknown keys.
  for (const name of Object.keys(op.query?.shape ?? {})) {
    for (const value of rnd.sample(WEIRD_QUERY, 4)) {
      const others = new URLSearchParams(baseQuery);
      others.delete(name);
      const rest = others.toString();
      cases.push({ ...base, label: `query ${name}=${value.slice(0, 40)}`, query: `${rest ? `${rest}&` : ""}${name}=${value}` });
    }
    cases.push({ ...base, label: `query ${name} repeated`, query: `${baseQuery}&${name}=1&${name}=2` });
  }
  cases.push({ ...base, label: "query noise", query: `${baseQuery}&&==&%ff=%ff&unknown=${"y".repeat(100)}` });

  // Body: every string ill-formed (422 at its path), every leaf another value, nodes of another shape, keys
  // ill-formed, and whole bodies that are broken.
  if (op.body) {
    for (const node of nodesOf(example)) {
      const at = node.path.join(".");
      if (typeof node.value === "string") {
        const bad = rnd.pick(ILL_FORMED(node.value));
        cases.push({
          ...base,
          label: `body ${at || "(root)"} ill-formed`,
          body: JSON.stringify(replaceAt(example, node.path, bad)),
          mustName: exampleValid ? at || "body" : undefined,
        });
      }
      if (node.value === null || typeof node.value !== "object") {
        for (const weird of rnd.sample(WEIRD_VALUES, 2))
          cases.push({ ...base, label: `body ${at} = ${JSON.stringify(weird)?.slice(0, 40)}`, body: JSON.stringify(replaceAt(example, node.path, weird)) });
      } else {
        cases.push({ ...base, label: `body ${at || "(root)"} wrapped in an array`, body: JSON.stringify(replaceAt(example, node.path, [node.value])) });
        cases.push({
          ...base,
          label: `body ${at || "(root)"} = ${JSON.stringify(rnd.pick(WEIRD_VALUES))?.slice(0, 40)}`,
          body: JSON.stringify(replaceAt(example, node.path, rnd.pick(WEIRD_VALUES))),
        });
        if (!Array.isArray(node.value)) {
          const withKey = { ...(node.value as object), [rnd.pick(["k\ud800", "\udfff", "a\u0000"])]: "v" };
          cases.push({ ...base, label: `body ${at || "(root)"} with an ill-formed key`, body: JSON.stringify(replaceAt(example, node.path, withKey)) });
        }
      }
    }
  }
  if (op.body || rawTypes.length || op.method !== "GET") {
    const raws = rawTypes.length
      ? [new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ...rnd.sample(rawBodies(example), 2)]
      : rnd.sample(rawBodies(example), op.body ? 9 : 5);
    for (const raw of raws) {
      const label = typeof raw === "string" ? raw.slice(0, 30) : `bytes ${Buffer.from(raw.slice(0, 12)).toString("hex")}`;
      cases.push({ ...base, label: `whole body ${JSON.stringify(label)}`, body: raw });
    }
  }

  // Headers.
  const headerCases: Record<string, string>[] = [
    { "content-type": "text/plain" },
    { "content-type": "application/json; charset=iso-8859-1" },
    { "content-type": "" },
    { "x-workspace-id": rnd.pick(["ws_fake", "\u00ff\u00fe", "x".repeat(1000), " "]) },
    { "idempotency-key": rnd.pick(["x".repeat(300), " ", "\u00e9"]) },
    { authorization: rnd.pick(["Bearer ", "Bearer fsk_" + "x".repeat(500), "Basic YTpi", "Bearer \u00ff"]) },
    { cookie: rnd.pick(["foliosign-workspace=%ff", "foliosign-workspace=%00", "a=b; ;;=", "foliosign-workspace=" + "x".repeat(2000)]) },
    { origin: "http://evil.example", "sec-fetch-site": "same-site" },
  ];
  for (const headers of rnd.sample(headerCases, 4)) cases.push({ ...base, label: `headers ${JSON.stringify(headers).slice(0, 80)}`, headers });
  return cases;
}

// ---------------------------------------------------------------------------------------------------------

describe("the generated malformed-request run (issue 24)", () => {
  let routes: Map<string, TRouteHandler>;
  let server: http.Server;
  let base: string;

  beforeAll(async () => {
    routes = await loadRoutes();
    setResolver(async () => [{ address: "93.184.215.14", family: 4 }]);
    server = createHttpServer(nextStandIn(routes), []);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    setResolver(undefined);
    setSessionLookup(undefined);
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("covers every operation of the route table", () => {
    expect([...routes.keys()].sort()).toEqual(allOperations.map((op) => op.operationId).sort());
  });

  it("no request answers 5xx, every refusal is { error, details? }, and an ill-formed string is a 422 naming its path", { timeout: 180_000 }, async () => {
    const world = await buildWorld(routes);
    setSessionLookup(async () => world.owner);
    const rnd = prng(SEED);
    const failures: string[] = [];
    let sent = 0;
    const check = (where: string, answer: TAnswer, mustName?: string, baseline?: number) => {
      sent++;
      const problem = shapeProblem(answer);
      if (problem) failures.push(`${where}: ${problem} — ${answer.text.slice(0, 300)}`);
      // An ill-formed string must be named — unless the request was refused before validation (the door,
      // the gates), as the same request with a valid string was.
      if (mustName !== undefined && baseline !== undefined && ![401, 402, 403, 415].includes(baseline)) {
        if (namedByItsItem(answer, mustName)) return;
        const details = answer.status === 422 ? ((JSON.parse(answer.text) as { details?: Record<string, string[]> }).details ?? {}) : {};
        if (answer.status !== 422 || !(mustName in details))
          failures.push(`${where}: expected a 422 naming ${mustName}, got ${answer.status} ${answer.text.slice(0, 300)}`);
        else if (Object.keys(details).length === 1 && details[mustName]!.length === 0) failures.push(`${where}: no message at ${mustName}`);
      }
    };

    // Deleting the resources last keeps them there for the other operations.
    const ordered = [...allOperations].sort((a, b) => Number(a.method === "DELETE") - Number(b.method === "DELETE"));
    const illFormedNamed: string[] = [];
    for (const op of ordered) {
      const route = routes.get(op.operationId)!;
      const cases = casesOf(op, world, rnd);
      let baseline: number | undefined;
      for (const c of cases) {
        const answer = await send(route, c);
        if (c.label === "as generated") baseline = answer.status;
        check(`${op.operationId} (${op.method} ${op.path}) ${c.label}`, answer, c.mustName, baseline);
        if (c.mustName !== undefined && answer.status === 422) {
          const details = (JSON.parse(answer.text) as { details?: Record<string, string[]> }).details ?? {};
          if (details[c.mustName]?.includes(ILL_FORMED_MESSAGE)) illFormedNamed.push(`${op.operationId} ${c.mustName}`);
        }
        // A request that set an IP allowlist would lock the key out of the rest of the run.
        if (op.operationId === "appSetIpAllowlist")
          await t.db.update(organisations).set({ ipAllowlist: [] }).where(eq(organisations.id, world.owner.organisationId));
      }

      // Through the real server: every param position with a segment that does not decode.
      const names = Object.keys(op.params?.shape ?? {});
      const headers: Record<string, string> = {
        authorization: `Bearer ${world.key}`,
        origin: APP_ORIGIN,
        "sec-fetch-site": "same-origin",
        "content-type": "application/json",
      };
      if (names.length === 0) {
        const answer = await rawRequest(base, op.method, `${op.path}/${rnd.pick(BAD_SEGMENTS)}`, headers);
        check(`server ${op.method} ${op.path}/<bad>`, answer);
        if (answer.status !== 400 || JSON.parse(answer.text).error !== MALFORMED_PATH_MESSAGE)
          failures.push(`server ${op.method} ${op.path}/<bad>: ${answer.status} ${answer.text}`);
      }
      for (const name of names) {
        for (const segment of rnd.sample(BAD_SEGMENTS, 3)) {
          const target = op.path.replace(/\{(\w+)\}/g, (_, n: string) => (n === name ? segment : encodeURIComponent(paramValue(world, op, n))));
          const answer = await rawRequest(base, op.method, `${target}?page=%ff`, headers);
          check(`server ${op.method} ${target}`, answer);
          if (answer.status !== 400 || JSON.parse(answer.text).error !== MALFORMED_PATH_MESSAGE)
            failures.push(`server ${op.method} ${target}: expected the JSON 400, got ${answer.status} ${answer.text.slice(0, 200)}`);
        }
      }
      // And the generated request itself reaches the route through the server (the stand-in works).
      const through = await rawRequest(base, op.method, `${urlPathOf(op, Object.fromEntries(names.map((n) => [n, paramValue(world, op, n)])))}`, headers);
      check(`server ${op.method} ${op.path} (valid path)`, through);
      if (through.status === 400 && through.text.includes(MALFORMED_PATH_MESSAGE)) failures.push(`server ${op.method} ${op.path}: a valid path refused`);
    }

    // The upload URL: tokens that are nonsense, and bodies of anything.
    for (const token of ["tok_fake", "\ud800", "\u0000", "", "x".repeat(5000)]) {
      const res = await uploadRoute(new Request("http://localhost:3000/uploads/x", { method: "PUT", body: "garbage" }), { params: Promise.resolve({ token }) });
      check(`PUT /uploads/${JSON.stringify(token.slice(0, 20))}`, {
        status: res.status,
        contentType: res.headers.get("content-type") ?? "",
        text: await res.text(),
      });
    }
    for (const segment of BAD_SEGMENTS) {
      const answer = await rawRequest(base, "PUT", `/uploads/${segment}`, {});
      check(`server PUT /uploads/${segment}`, answer);
      if (answer.status !== 400) failures.push(`server PUT /uploads/${segment}: ${answer.status}`);
    }

    expect(failures, `seed ${SEED}`).toEqual([]);
    // Bounded and broad: thousands of requests, and the ill-formed-string 422 seen on many operations.
    expect(sent).toBeGreaterThan(3000);
    expect(new Set(illFormedNamed.map((s) => s.split(" ")[0])).size).toBeGreaterThan(60);
  });
});
