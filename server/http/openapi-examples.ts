/**
 * Realistic examples for every operation of the OpenAPI document, generated from the document's own schemas
 * (so from the same zod schemas the routes validate with): a request body example, a success example, example
 * values for path parameters, and a curl sample (`x-codeSamples`, which Redoc shows beside each operation).
 *
 * A schema's own `example` always wins. Where a schema has none, the value comes from what the property is:
 * ids in our format with the right prefix (`pkg_…`, `ses_…`, server/lib/ids.ts), addresses at example.com, real
 * event names (the enum), a title, a SHA-256 — never the placeholder `"string"`. The examples are checked
 * against the operations' zod schemas by server/http/openapi-examples.test.ts, and against the JSON schemas by
 * `npm run lint:openapi` (Spectral's example rules).
 */
import type { z } from "zod";
import type { TOperation } from "@/server/domain/operation";

type TSchema = {
  $ref?: string;
  type?: string;
  format?: string;
  enum?: unknown[];
  example?: unknown;
  default?: unknown;
  nullable?: boolean;
  properties?: Record<string, TSchema>;
  required?: string[];
  items?: TSchema;
  additionalProperties?: boolean | TSchema;
  allOf?: TSchema[];
  oneOf?: TSchema[];
  anyOf?: TSchema[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  minItems?: number;
  minLength?: number;
  maxLength?: number;
};
type TMedia = { schema?: TSchema; example?: unknown };
type TParameter = { name: string; in: string; required?: boolean; schema?: TSchema; example?: unknown };
type TOperationObject = {
  operationId?: string;
  security?: unknown[];
  parameters?: TParameter[];
  requestBody?: { required?: boolean; content: Record<string, TMedia> };
  responses: Record<string, { content?: Record<string, TMedia> }>;
  "x-codeSamples"?: { lang: string; label: string; source: string }[];
};
type TDocument = { servers?: { url: string }[]; paths: Record<string, Record<string, TOperationObject>>; components?: { schemas?: Record<string, TSchema> } };

/** A fixed time part, so every example id reads like a real one (12 hex digits of milliseconds, 32 random). */
const ID_TIME = "019a6b2c4d1e";
const ID_TAILS = ["8f3c2a9d4b7e41c6a0d5e2f19b3c7a64", "2b7e9f1c3d5a4e8b9c0d1f2a3b4c5d6e", "c4d5e6f70819a2b3c4d5e6f708192a3b"];

/** The prefix of the id a property names: by the property (`packageId`) or, for `id`, by where it sits. */
const PREFIX_BY_NAME: Record<string, string> = {
  package: "pkg",
  packages: "pkg",
  deletedpackage: "pkg",
  packagesummary: "pkg",
  session: "ses",
  recipientsession: "ses",
  recipientsessions: "ses",
  template: "tpl",
  templatesummary: "tpl",
  document: "doc",
  templatedocument: "doc",
  packagedocument: "doc",
  documents: "doc",
  librarydocument: "libd",
  role: "trole",
  templaterole: "trole",
  field: "tfld",
  templatefield: "tfld",
  customfield: "cfd",
  signinggroup: "sgrp",
  signinggroupmember: "sgm",
  webhookendpoint: "whep",
  createdwebhookendpoint: "whep",
  webhookendpointwithdeliveries: "whep",
  endpoint: "whep",
  webhookdelivery: "whd",
  delivery: "whd",
  event: "whe",
  auditevent: "aud",
  organisation: "org",
  workspace: "ws",
  user: "usr",
  issuedby: "usr",
  owneruser: "usr",
  actoruser: "usr",
  apikey: "key",
  share: "psh",
};

/** Names that end in `Id` but hold no id of ours. */
const NOT_IDS = new Set(["externalId", "assertionId"]);

/** The path parameter and property names that name a role by its position rather than an id. */
const ROLE_ROLE_CONTEXT = new Set(["role"]);

function idFor(prefix: string, n = 0): string {
  return `${prefix}_${ID_TIME}${ID_TAILS[n % ID_TAILS.length]}`;
}

/** `packageId` → pkg_…; `id` inside a Package → pkg_…; unknown → undefined. */
function idPrefix(name: string, context: readonly string[]): string | undefined {
  if (NOT_IDS.has(name)) return undefined;
  if (name !== "id") {
    if (!/Id$/.test(name)) return undefined;
    return PREFIX_BY_NAME[name.slice(0, -2).toLowerCase()] ?? "obj";
  }
  for (let i = context.length - 1; i >= 0; i--) {
    const c = context[i]!.toLowerCase();
    // Account.role is an organisation role (`role_…`); a template's roles are `trole_…`.
    if (ROLE_ROLE_CONTEXT.has(c) && context.includes("Account")) return "role";
    const prefix = PREFIX_BY_NAME[c];
    if (prefix) return prefix;
  }
  return "obj";
}

const HEX64 = "3a7bd3e2360a3d29eea436fcfb7e44c735d117c42d1c1835420b6b9942dd4f1b";
const PREVIOUS_HEX64 = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
const LATER = "2030-01-01T12:00:00.000Z";

/** Strings by property name; `context` is the chain of component and property names above it. */
function stringFor(name: string, context: readonly string[], server: string): string {
  const inside = (...names: string[]) => context.some((c) => names.includes(c));
  switch (name) {
    case "email":
    case "actorEmail":
      return inside("issuedBy", "user", "EditLock") ? "owner@example.com" : "jane@example.com";
    case "name":
      if (inside("Account") && inside("organisation")) return "Acme Ltd";
      if (inside("workspace", "Workspace")) return "Default";
      if (inside("apiKey")) return "CRM integration";
      if (inside("role") && inside("Account")) return "Admin";
      if (inside("TemplateRole", "CreateTemplateRole", "UpdateTemplateRole", "TemplateRoleList")) return "Tenant";
      if (inside("SigningGroup", "SigningGroupList") && !inside("members", "SigningGroupMember")) return "Legal team";
      if (inside("TemplateDocument", "PackageDocument", "LibraryDocument", "AddDocument", "documents", "AddedDocument")) return "Lease agreement.pdf";
      if (inside("Template", "TemplateSummary", "CreateTemplate", "UpdateTemplate")) return "Residential lease";
      return "Jane Doe";
    case "title":
    case "packageTitle":
      return "Lease renewal — Flat 4B";
    case "description":
      return inside("LibraryDocument") ? "Our standard lease, 2026 edition" : "Residential lease, 12 months";
    case "slug":
      return "default";
    case "prefix":
      return "fsk_3f9a";
    case "sha256":
    case "hash":
      return HEX64;
    case "previousHash":
      return PREVIOUS_HEX64;
    case "url":
      return inside("SigningUrl") ? `${server}/sign/q7F2kT9xV4mW8bZ1cR6yN3pL5sD0hJ2aE9uG4iK7oQ` : "https://hooks.example.com/foliosign";
    case "uploadUrl":
      return `${server}/uploads/Jx3c0q9TQ2m7yJx4pX2b1L0c4v8KfQ5Zr6s8uW1aB3E`;
    case "label":
      if (inside("questions", "SenderQuestion", "SenderQuestionInput")) return "Lease term";
      return inside("MergeField", "mergeFields") ? "Customer name" : inside("CustomField") ? "Contract number" : "Signature";
    case "key":
      return inside("MergeField", "mergeFields") ? "customerName" : inside("questions", "SenderQuestion", "SenderQuestionInput") ? "term" : "contractNumber";
    case "mergeFieldKey":
      return "customerName";
    case "defaultValue":
      return "Tina T.";
    case "message":
      return "Please sign the renewal by Friday.";
    case "reason":
    case "voidReason":
    case "declineReason":
      return "The terms changed; a new package follows.";
    case "roleName":
      return "Tenant";
    case "clientAddress":
      return "203.0.113.9";
    case "externalId":
      return "crm-8812";
    case "action":
      return "package.sent";
    case "method":
      return "sso";
    case "assertionId":
      return "saml-assertion-5d2c";
    case "responseBody":
      return '{"received":true}';
    case "error":
    case "lastError":
    case "scheduleError":
      return "No package credit left";
    case "secret":
      return "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    case "search":
      return "lease";
    case "token":
      return "Jx3c0q9TQ2m7yJx4pX2b1L0c4v8KfQ5Zr6s8uW1aB3E";
    default:
      // Anything else reads as what it is ("contractNumber" → "Contract number"), never "string".
      return name.replace(/([a-z])([A-Z])/g, "$1 $2").replace(/^./, (c) => c.toUpperCase());
  }
}

const NUMBERS: Record<string, number> = {
  fileSize: 48213,
  pageCount: 2,
  page: 1,
  pageSize: 25,
  totalCount: 1,
  x: 72,
  y: 640,
  width: 180,
  height: 36,
  roleIndex: 0,
  order: 0,
  position: 0,
  attempts: 1,
  responseStatus: 200,
  durationMs: 142,
  afterDays: 3,
  everyDays: 3,
};

/** A nullable property that is null in a typical answer (an error not happened, a reason not given). */
const USUALLY_NULL =
  /(Reason|Error)$|^(error|expiredAt|completedAt|declinedAt|voidedAt|deletedAt|revokedAt|nextAttemptAt|signingGroupId|identity|libraryDocumentId|assertionId)$/;

/** The state an operation's answer shows (the first of the enum otherwise). */
const PACKAGE_STATUS_BY_OPERATION: Record<string, string> = {
  sendPackage: "IN_PROGRESS",
  getPackage: "IN_PROGRESS",
  listPackages: "IN_PROGRESS",
  remindPackage: "IN_PROGRESS",
  resumePackage: "IN_PROGRESS",
  transferPackage: "IN_PROGRESS",
  holdPackage: "ON_HOLD",
  voidPackage: "VOID",
  bulkSendPackages: "IN_PROGRESS",
};

function clamp(n: number, s: TSchema): number {
  let v = n;
  if (s.minimum !== undefined && (v < s.minimum || (s.exclusiveMinimum && v <= s.minimum))) v = s.exclusiveMinimum ? s.minimum + 1 : s.minimum;
  if (s.maximum !== undefined && v > s.maximum) v = s.maximum;
  return s.type === "integer" ? Math.round(v) : v;
}

class Sampler {
  /** Per operation: the value a component stands for (e.g. PackageStatus → ON_HOLD for holdPackage). */
  overrides: Record<string, unknown> = {};

  constructor(
    private readonly schemas: Record<string, TSchema>,
    private readonly server: string,
  ) {}

  sample(schema: TSchema, name: string, context: readonly string[], depth = 0): unknown {
    if (depth > 12) return null;
    if (schema.$ref) {
      const component = schema.$ref.split("/").pop()!;
      if (component in this.overrides) return this.overrides[component];
      return this.sample(this.schemas[component] ?? {}, name, [...context, component], depth + 1);
    }
    if (schema.nullable && USUALLY_NULL.test(name)) return null;
    if (schema.example !== undefined) return schema.example;
    if (schema.allOf) {
      const parts = schema.allOf.map((s) => this.sample(s, name, context, depth + 1));
      const objects = parts.filter((p): p is object => typeof p === "object" && p !== null && !Array.isArray(p));
      return objects.length ? Object.assign({}, ...objects) : parts[0];
    }
    const alternatives = schema.oneOf ?? schema.anyOf;
    if (alternatives?.length) return this.sample(alternatives[0]!, name, context, depth + 1);
    if (schema.enum?.length) return schema.default !== undefined && schema.enum.includes(schema.default) ? schema.default : schema.enum[0];
    if (schema.default !== undefined && schema.type !== "object") return schema.default;
    switch (schema.type) {
      case "object":
        return this.object(schema, name, context, depth);
      case "array": {
        const item = this.sample(schema.items ?? {}, singular(name), [...context, name], depth + 1);
        return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => item);
      }
      case "integer":
      case "number":
        if (context.at(-1) === "pageSizes" || context.at(-1) === "pageSize") return clamp(name === "width" ? 595.28 : name === "height" ? 841.89 : 1, schema);
        return clamp(NUMBERS[name] ?? 1, schema);
      case "boolean":
        return !["test", "mine", "convertedFromDocx"].includes(name);
      case "string":
        return this.string(schema, name, context);
      default:
        // `{}` (any JSON value), e.g. an audit event's data entries.
        return name === "data" ? { status: "IN_PROGRESS" } : "IN_PROGRESS";
    }
  }

  private object(schema: TSchema, name: string, context: readonly string[], depth: number): Record<string, unknown> {
    const inner = [...context, name];
    const out: Record<string, unknown> = {};
    for (const [key, prop] of Object.entries(schema.properties ?? {})) out[key] = this.sample(prop, key, inner, depth + 1);
    if (!schema.properties && schema.additionalProperties && typeof schema.additionalProperties === "object") {
      const [key, value] = RECORD_ENTRIES[name] ?? ["status", "IN_PROGRESS"];
      const sampled = this.sample(schema.additionalProperties, key, inner, depth + 1);
      out[key] = typeof sampled === "string" ? value : sampled;
    }
    return out;
  }

  private string(schema: TSchema, name: string, context: readonly string[]): string {
    if (schema.format === "date-time") return LATER;
    if (schema.format === "binary") return "";
    const prefix = idPrefix(name, context);
    const value = prefix ? idFor(prefix) : stringFor(name, context, this.server);
    return schema.maxLength !== undefined && value.length > schema.maxLength ? value.slice(0, schema.maxLength) : value;
  }
}

/** The one entry an example of a record (`{ [key]: value }`) shows, by the record's name. */
const RECORD_ENTRIES: Record<string, [string, string]> = {
  metadata: ["contractNumber", "C-42"],
  mergeFields: ["customerName", "Tina T."],
  mergeValues: ["customerName", "Tina T."],
  answers: ["term", "12 months"],
  data: ["status", "IN_PROGRESS"],
};

function singular(name: string): string {
  return name.endsWith("ies") ? `${name.slice(0, -3)}y` : name.endsWith("s") ? name.slice(0, -1) : name;
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A curl command that runs as printed once `FOLIOSIGN_KEY` holds a key (`export FOLIOSIGN_KEY=fsk_…`). */
function curlSample(server: string, method: string, path: string, op: TOperationObject, body: unknown, pathValues: Record<string, unknown>): string {
  const url = server + path.replace(/\{(\w+)\}/g, (_, p: string) => String(pathValues[p]));
  const lines = [`curl -X ${method.toUpperCase()} "${url}"`];
  const isUpload = op.security?.length === 0;
  if (!isUpload) lines.push(`-H "Authorization: Bearer $FOLIOSIGN_KEY"`);
  const binary = Object.keys(op.responses["200"]?.content ?? {}).find((t) => t !== "application/json");
  if (isUpload) lines.push(`-H "Content-Type: application/pdf"`, `--data-binary @lease-agreement.pdf`);
  else if (body !== undefined) lines.push(`-H "Content-Type: application/json"`, `-d ${shellQuote(JSON.stringify(body))}`);
  if (binary) lines.push("-OJ");
  return lines.join(" \\\n  ");
}

/**
 * The sample, made to fit the zod schema: a rule that spans properties (an access code only with the ACCESS_CODE
 * method, a user id or an email) is something a JSON schema cannot say, so the optional properties zod names in
 * its issues are left out, one round at a time. Whatever is left must parse (the examples test checks it).
 */
function fitToSchema(example: unknown, schema: z.ZodType | undefined): unknown {
  if (!schema) return example;
  const current = structuredClone(example);
  for (let round = 0; round < 8; round++) {
    const parsed = schema.safeParse(current);
    if (parsed.success) return current;
    let removed = false;
    for (const issue of parsed.error.issues) removed = removeAt(current, issue.path) || removed;
    if (!removed) return current;
  }
  return current;
}

function removeAt(root: unknown, path: readonly PropertyKey[]): boolean {
  let node = root;
  for (const key of path.slice(0, -1)) {
    if (typeof node !== "object" || node === null) return false;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  const last = path.at(-1);
  if (last === undefined || typeof node !== "object" || node === null || !(last in node)) return false;
  delete (node as Record<PropertyKey, unknown>)[last];
  return true;
}

/** A `{ data }` answer whose data fits the operation's response schema. */
function sampleResponse(sampler: Sampler, schema: TSchema, response: z.ZodType | undefined): unknown {
  const sampled = sampler.sample(schema, "response", []) as { data?: unknown };
  return sampled && typeof sampled === "object" && "data" in sampled ? { ...sampled, data: fitToSchema(sampled.data, response) } : sampled;
}

/** What the second curl sample of an action whose body is optional does without a body, where a label says more. */
const NO_BODY_LABELS: Record<string, string> = {
  sendPackage: "curl (send now)",
  voidPackage: "curl (no reason)",
  remindPackage: "curl (every open recipient)",
};

/** Adds the examples and curl samples to a built document, in place; `operations` are the zod schemas to fit. */
export function addOperationExamples(built: object, operations: readonly TOperation[]): void {
  // The generator's OpenAPIObject, read through the few fields this pass touches.
  const doc = built as TDocument;
  const byId = new Map(operations.map((op) => [op.operationId, op]));
  const schemas = doc.components?.schemas ?? {};
  const server = doc.servers?.[0]?.url ?? "http://localhost:3000";
  const sampler = new Sampler(schemas, server);
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const packageStatus = PACKAGE_STATUS_BY_OPERATION[op.operationId ?? ""];
      sampler.overrides = packageStatus ? { PackageStatus: packageStatus } : {};
      const pathValues: Record<string, unknown> = {};
      for (const p of op.parameters ?? []) {
        if (p.in !== "path" || !p.schema) continue;
        p.example ??= sampler.sample(p.schema, p.name, [op.operationId ?? ""]);
        pathValues[p.name] = p.example;
      }
      const json = op.requestBody?.content["application/json"];
      const operation = byId.get(op.operationId ?? "");
      // Every body of the operation's own gets an example, optional or not (not `NoBody`: nothing to show).
      if (json?.schema && operation?.body) json.example ??= fitToSchema(sampler.sample(json.schema, "body", []), operation.body);
      for (const [status, response] of Object.entries(op.responses)) {
        const media = response.content?.["application/json"];
        if (!status.startsWith("2") || !media?.schema) continue;
        media.example ??= sampleResponse(sampler, media.schema, operation?.response);
      }
      const body = operation?.body ? json?.example : undefined;
      op["x-codeSamples"] = [{ lang: "Shell", label: "curl", source: curlSample(server, method, path, op, body, pathValues) }];
      // An action whose body may be left out (send, void, remind) also shows the call without one.
      if (method === "post" && operation?.body && op.requestBody?.required === false) {
        op["x-codeSamples"].push({
          lang: "Shell",
          label: NO_BODY_LABELS[op.operationId ?? ""] ?? "curl (no body)",
          source: curlSample(server, method, path, op, undefined, pathValues),
        });
      }
    }
  }
}
