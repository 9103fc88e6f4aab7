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
import http from "node:http";
import type { AddressInfo } from "node:net";
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
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
import { createHttpServer, type TNextHandler } from "@/server/http-server";
import { allOperations } from "@/server/http/operations";
import type { TRouteHandler } from "@/server/http/route";
import { CLIENT_ADDRESS_HEADER } from "@/server/http/steps/client-address";
import { resetRateLimits } from "@/server/http/steps/rate-limit";
import { MALFORMED_PATH_MESSAGE } from "@/server/http/unrouted-api";
import { uploadRoute } from "@/server/http/upload-route";
import { ILL_FORMED_MESSAGE } from "@/server/lib/parse";
import { getFileStore } from "@/server/storage/get-file-store";
import { createTestMember } from "@/server/test/actors";
import { workspaceActor } from "@/server/test/actors";
import { useTestDb } from "@/server/test/db";
import { createTestKey, createTestOrg, createTestRole } from "@/server/test/factories";
import { exampleOf } from "./test-support/schema-mutations";

const t = useTestDb();

/** Change it to explore other requests; a failure names the seed and the request, so it replays exactly. */
const SEED = 0x24_2026;
const APP_ORIGIN = "http://localhost:3000";

// ---------------------------------------------------------------------------------------------------------
// A seeded PRNG (mulberry32) and the malformed values.

function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const sample = <T>(list: readonly T[], n: number): T[] => {
    const copy = [...list];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [copy[i], copy[j]] = [copy[j]!, copy[i]!];
    }
    return copy.slice(0, n);
  };
  return { next, pick, sample };
}

/** Strings that are not well-formed Unicode: each must be a 422 wherever it lands. */
const ILL_FORMED = (s: string) => ["\ud800", `${s}\udfff`, `\ud83d${s}`, `${s}\udc00${s}`, "\ude00\ud83d"];

/** Values of every JSON type and the edges of each: what a leaf of a valid body is replaced by. */
const WEIRD_VALUES: readonly unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  -0.0001,
  1e308,
  -1e308,
  2 ** 53 + 1,
  1e21,
  2147483648,
  -2147483649,
  "",
  " ",
  "x".repeat(5000),
  "\u0000",
  "a\u0000b",
  "\ud83d\ude00",
  "9".repeat(400),
  "-1",
  "1e400",
  "true",
  "null",
  "2030-13-45T99:99:99Z",
  "0000-00-00",
  "not-an-id",
  "../../etc/passwd",
  "<script>alert(1)</script>",
  [],
  {},
  [1, 2],
  { a: 1 },
  [{}],
  ["x"],
];

/** Param values that decode fine but are nonsense; the ill-formed ones are added per param. */
const WEIRD_PARAMS = [
  "",
  " ",
  "x".repeat(5000),
  "\u0000",
  "a\u0000",
  "../..",
  "%ff",
  "-1",
  "1e400",
  "0x10",
  "99999999999999999999",
  "\ud83d\ude00",
  "null",
  "fake_0123456789abcdef",
];

/** Segments that are not percent-encoded UTF-8 (what decodeURIComponent refuses). */
const BAD_SEGMENTS = ["%ff", "%", "%E0%A4%A", "%ED%A0%80", "%C0%AF", "a%zz", "%f0%9f%98", "x%"];

/** Raw query values; each is sent as is, percent-encoding (good or bad) included. */
const WEIRD_QUERY = [
  "",
  "-1",
  "0",
  "1.5",
  "1e309",
  "99999999999999999999999",
  "NaN",
  "Infinity",
  "abc",
  "%ff",
  "%",
  "%00",
  "%ED%A0%80",
  "x".repeat(3000),
  "2030-13-45",
  "true",
  "%F0%9F%98%80",
];

/** Whole bodies that are not what any operation takes. */
function rawBodies(example: unknown): (string | Uint8Array)[] {
  const json = JSON.stringify(example ?? {});
  return [
    "",
    " ",
    "{",
    "}",
    "[]",
    "null",
    "0",
    '"text"',
    '{"a":}',
    "{}garbage",
    "1e400",
    '{"__proto__":{"polluted":true}}',
    '{"constructor":{"prototype":{"polluted":true}}}',
    `${"[".repeat(20_000)}${"]".repeat(20_000)}`,
    `{"a":${'{"a":'.repeat(5_000)}1${"}".repeat(5_000)}}`,
    new Uint8Array([0xff, 0xfe, 0x7b, 0x7d]),
    new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d]),
    `\ufeff${json}`,
    `[${json}]`,
    new Uint8Array(Buffer.from(json, "utf16le")),
    json.replace(/\d+/g, "1".repeat(400)),
    json.replace(/^\{/, '{"__proto__":{"x":1},'),
  ];
}

// ---------------------------------------------------------------------------------------------------------
// Walking a body: every leaf and node with its dotted path.

type TPath = (string | number)[];
type TNode = { path: TPath; value: unknown };

function nodesOf(value: unknown, at: TPath = []): TNode[] {
  const out: TNode[] = [{ path: at, value }];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...nodesOf(v, [...at, i])));
  else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) out.push(...nodesOf(v, [...at, k]));
  return out;
}

function replaceAt(root: unknown, at: TPath, replacement: unknown): unknown {
  if (at.length === 0) return replacement;
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let node = copy;
  for (const seg of at.slice(0, -1)) node = node[seg] as Record<string | number, unknown>;
  node[at.at(-1)!] = replacement;
  return copy;
}

// ---------------------------------------------------------------------------------------------------------
// The routes: every route file under app/api, keyed by operation.

function routeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) return routeFiles(full);
    return entry === "route.ts" ? [full] : [];
  });
}

async function loadRoutes(): Promise<Map<string, TRouteHandler>> {
  const byOperation = new Map<string, TRouteHandler>();
  for (const file of [...routeFiles(path.resolve("app/api/v1")), ...routeFiles(path.resolve("app/api/app"))]) {
    const mod = (await import(file)) as Record<string, TRouteHandler | undefined>;
    for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"]) {
      const handler = mod[method];
      if (handler?.operation) byOperation.set(handler.operation.operationId, handler);
    }
  }
  return byOperation;
}

/** The media types of an operation's raw (non-JSON) body; empty for JSON. */
function rawTypesOf(op: TOperation): readonly string[] {
  const declared = (op as { rawBodyTypes?: readonly string[] }).rawBodyTypes;
  if (declared) return declared;
  return (
    { appUploadLibraryDocument: ["application/pdf"], appVerifySealedPdf: ["application/pdf"], appSetSigningFieldImage: ["image/png"] }[op.operationId] ?? []
  );
}

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

// ---------------------------------------------------------------------------------------------------------
// Sending: a route handler called as Next calls it, from 127.0.0.1, signed in as the owner on /api/app.

type TSend = { params: Record<string, string>; query: string; body?: string | Uint8Array; headers?: Record<string, string>; key?: string; urlPath?: string };
type TAnswer = { status: number; contentType: string; text: string };

function urlPathOf(op: TOperation, params: Record<string, string>): string {
  return op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name] ?? "";
    return value.isWellFormed() ? encodeURIComponent(value) || "_" : "_";
  });
}

async function send(route: TRouteHandler, req: TSend): Promise<TAnswer> {
  const op = route.operation;
  const headers = new Headers({ [CLIENT_ADDRESS_HEADER]: "127.0.0.1" });
  if (op.path.startsWith("/api/v1/") && req.key) headers.set("authorization", `Bearer ${req.key}`);
  if (op.path.startsWith("/api/app/")) {
    headers.set("origin", APP_ORIGIN);
    headers.set("sec-fetch-site", "same-origin");
  }
  if (req.body !== undefined) headers.set("content-type", rawTypesOf(op)[0] ?? "application/json");
  for (const [name, value] of Object.entries(req.headers ?? {})) {
    if (value === "") headers.delete(name);
    else headers.set(name, value);
  }
  const url = `http://localhost:3000${req.urlPath ?? urlPathOf(op, req.params)}${req.query ? `?${req.query}` : ""}`;
  const body = req.body === undefined || op.method === "GET" ? undefined : typeof req.body === "string" ? req.body : new Uint8Array(req.body);
  resetRateLimits();
  const res = await route(new Request(url, { method: op.method, headers, body }), { params: Promise.resolve(req.params) });
  return { status: res.status, contentType: res.headers.get("content-type") ?? "", text: await res.text() };
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

// ---------------------------------------------------------------------------------------------------------
// The cases of one operation.

type TCase = TSend & { label: string; /** The dotted path a 422 must name (an ill-formed string put there). */ mustName?: string };

function casesOf(op: TOperation, world: TWorld, rnd: ReturnType<typeof prng>): TCase[] {
  const params = Object.fromEntries(Object.keys(op.params?.shape ?? {}).map((name) => [name, paramValue(world, op, name)]));
  const rawTypes = rawTypesOf(op);
  const example = op.body ? exampleOf(op.body) : undefined;
  const exampleValid = op.body ? op.body.safeParse(example).success : false;
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
// Through our HTTP server: a stand-in for Next that routes like Next (and fails like it on a bad segment).

function nextStandIn(routes: Map<string, TRouteHandler>): TNextHandler {
  const table = allOperations.map((op) => ({ op, segments: op.path.split("/") }));
  return async (req, res) => {
    const url = new URL(req.url!, "http://localhost:3000");
    const segments = url.pathname.split("/");
    const found = table.find(
      ({ op, segments: pattern }) =>
        op.method === req.method && pattern.length === segments.length && pattern.every((p, i) => /^\{\w+\}$/.test(p) || p === segments[i]),
    );
    const upload = /^\/uploads\/[^/]+$/.test(url.pathname) && req.method === "PUT";
    if (!found && !upload) {
      res.writeHead(404, { "content-type": "text/html" }).end("<!DOCTYPE html><title>Page not found</title>");
      return;
    }
    const params: Record<string, string> = {};
    try {
      if (upload) params.token = decodeURIComponent(segments[2]!);
      else
        found!.segments.forEach((p, i) => {
          const name = /^\{(\w+)\}$/.exec(p)?.[1];
          if (name) params[name] = decodeURIComponent(segments[i]!);
        });
    } catch {
      // What Next 16 answers when it cannot decode a dynamic segment (see unrouted-api.ts `pathDecodes`).
      res.writeHead(500, { "content-type": "text/plain" }).end("Internal Server Error");
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(", ") : v);
    const body = chunks.length && req.method !== "GET" ? new Uint8Array(Buffer.concat(chunks)) : undefined;
    const request = new Request(url, { method: req.method, headers, body });
    const handler = upload ? uploadRoute : routes.get(found!.op.operationId)!;
    const response = await handler(request, { params: Promise.resolve(params) });
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  };
}

function rawRequest(base: string, method: string, target: string, headers: Record<string, string>): Promise<TAnswer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request({ hostname, port, method, path: target, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({ status: res.statusCode!, contentType: String(res.headers["content-type"] ?? ""), text: Buffer.concat(chunks).toString("utf8") }),
      );
    });
    req.on("error", reject);
    req.end(method === "GET" || method === "DELETE" ? undefined : "{}");
  });
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
