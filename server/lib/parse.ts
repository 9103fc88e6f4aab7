import { errors, type TErrorDetails } from "./errors";
import { addOpenApiComponents } from "./openapi-components";
import { z } from "./zod";

type TIssue = z.core.$ZodIssue;
type TSchema = z.core.$ZodType;
type TPath = readonly PropertyKey[];

/**
 * zod issues → `details` keyed by dotted path (`recipients.0.email`); `root` names the whole value. Give the
 * `schema` and the `value` that were parsed so that a body of several forms (`z.union`) is reported against
 * the form it resembles: zod reports a failed union as one "Invalid input" at the union's own path, with
 * every form's issues inside it, and those issues (not that one line) are what says which field is wrong.
 */
export function issuesToDetails(issues: readonly TIssue[], root: string, schema?: TSchema, value?: unknown): TErrorDetails {
  const details: TErrorDetails = {};
  collectIssues(issues, [], schema, value, detailsAdder(details, root));
  return details;
}

/** Adds a message at a dotted path (`root` for the whole value) of `details`, once. */
function detailsAdder(details: TErrorDetails, root: string): (path: TPath, message: string) => void {
  return (path, message) => {
    const list = messagesAt(details, path.length ? path.map(String).join(".") : root);
    if (!list.includes(message)) list.push(message);
  };
}

/**
 * The list of messages at `key`, created as an own property: a key can be what the client sent (an unknown
 * field such as `__proto__` or `constructor`), which plain indexing would read from, or write to, the prototype.
 */
function messagesAt(details: TErrorDetails, key: string): string[] {
  if (!Object.hasOwn(details, key)) Object.defineProperty(details, key, { value: [], enumerable: true, writable: true, configurable: true });
  return details[key]!;
}

/** Issues whose paths are relative to `base`, where `schema` and `value` (when known) are what was parsed. */
function collectIssues(issues: readonly TIssue[], base: TPath, schema: TSchema | undefined, value: unknown, add: (path: TPath, message: string) => void) {
  for (const issue of issues) {
    const path = [...base, ...issue.path];
    if (issue.code === "unrecognized_keys") {
      // A strict object names each key it does not know at the key's own path, as an unknown merge field or
      // metadata key is named (`mergeFields.<key>`), not as one line at the object.
      // A key that could not be a path (NUL, a lone surrogate) is named at the object, as nulDetails names it.
      for (const key of issue.keys) {
        const problem = unstorable(key, { nul: NUL_KEY_MESSAGE, illFormed: ILL_FORMED_KEY_MESSAGE });
        if (problem) add(path, problem);
        else add([...path, key], UNKNOWN_FIELD_MESSAGE);
      }
      continue;
    }
    if (issue.code !== "invalid_union" || issue.errors.length === 0) {
      add(path, issue.message);
      continue;
    }
    // A union at `issue.path` refused the value in every form. (A discriminated union whose discriminator
    // matches reports its form's issues itself; one that matches none has no `errors` and names the discriminator.)
    const union = schema ? schemaAt(schema, issue.path) : undefined;
    const options = union?._zod.def.type === "union" ? (union._zod.def as z.core.$ZodUnionDef).options : undefined;
    const unionValue = valueAt(value, issue.path);
    const wrongType = typeMismatchMessage(issue.errors, unionValue);
    if (wrongType) add(path, wrongType);
    else {
      const best = bestBranch(issue.errors, options, unionValue);
      collectIssues(issue.errors[best]!, path, options?.[best], unionValue, add);
    }
  }
}

/**
 * Which form of a union to report: not one that refuses the value's type outright; then the one that declares
 * the most of the keys the value has (when the value shares no key with any form: the first form, the main
 * one); then the one with the fewest missing fields; then the fewest issues; then the first.
 */
function bestBranch(branches: readonly (readonly TIssue[])[], options: readonly TSchema[] | undefined, value: unknown): number {
  const keys = isPlainObject(value) ? Object.keys(value) : [];
  const known = branches.map((_, i) => {
    const shape = options?.[i] ? objectShape(options[i]) : undefined;
    return shape ? keys.filter((k) => Object.hasOwn(shape, k)).length : 0;
  });
  const anyKnown = known.some((n) => n > 0);
  const score = (errs: readonly TIssue[], i: number) => [
    errs.some((e) => e.path.length === 0 && e.code === "invalid_type") ? 1 : 0,
    -known[i]!,
    anyKnown ? errs.filter((e) => e.code === "invalid_type" && valueAt(value, e.path) === undefined).length : 0,
    anyKnown ? errs.length : 0,
  ];
  let best = 0;
  let bestScore = score(branches[0]!, 0);
  for (let i = 1; i < branches.length; i++) {
    const s = score(branches[i]!, i);
    const d = s.findIndex((v, j) => v !== bestScore[j]);
    if (d >= 0 && s[d]! < bestScore[d]!) [best, bestScore] = [i, s];
  }
  return best;
}

/** When every form refuses the value itself (its type or value, nothing inside it): one message naming them all. */
function typeMismatchMessage(branches: readonly (readonly TIssue[])[], value: unknown): string | undefined {
  const expected: string[] = [];
  for (const errs of branches) {
    for (const e of errs) {
      if (e.path.length > 0) return undefined;
      if (e.code === "invalid_type") expected.push(e.expected);
      else if (e.code === "invalid_value") expected.push(...e.values.map((v) => JSON.stringify(v) ?? String(v)));
      else return undefined;
    }
  }
  if (expected.length === 0) return undefined;
  const received = value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
  return `Invalid input: expected ${[...new Set(expected)].join(" or ")}, received ${received}`;
}

/** The schema that parses the value at `path` below `schema` (through wrappers, objects, arrays, records, tuples). */
function schemaAt(schema: TSchema, path: TPath): TSchema | undefined {
  let s: TSchema | undefined = unwrap(schema);
  for (const seg of path) {
    if (!s) return undefined;
    const def = s._zod.def as z.core.$ZodTypeDef & Record<string, unknown>;
    if (def.type === "object") {
      const d = def as unknown as z.core.$ZodObjectDef;
      s = typeof seg === "string" && Object.hasOwn(d.shape, seg) ? d.shape[seg] : d.catchall;
    } else if (def.type === "array") s = (def as unknown as z.core.$ZodArrayDef).element;
    else if (def.type === "record") s = (def as unknown as z.core.$ZodRecordDef).valueType;
    else if (def.type === "tuple") {
      const d = def as unknown as z.core.$ZodTupleDef;
      s = d.items[Number(seg)] ?? d.rest ?? undefined;
    } else return undefined;
    s = s ? unwrap(s) : undefined;
  }
  return s;
}

/** Through the wrappers that parse the same value (optional, nullable, default, pipe's input side…). */
function unwrap(schema: TSchema): TSchema {
  let s = schema;
  for (let i = 0; i < 32; i++) {
    const def = s._zod.def as z.core.$ZodTypeDef & { innerType?: TSchema; in?: TSchema; out?: TSchema; getter?: () => TSchema };
    if (def.innerType && ["optional", "nullable", "default", "prefault", "nonoptional", "readonly", "catch"].includes(def.type)) s = def.innerType;
    else if (def.type === "pipe" && def.in && def.out) s = def.in._zod.def.type === "transform" ? def.out : def.in;
    else if (def.type === "lazy" && def.getter) s = def.getter();
    else break;
  }
  return s;
}

function objectShape(schema: TSchema): Readonly<Record<string, TSchema>> | undefined {
  const s = unwrap(schema);
  return s._zod.def.type === "object" ? (s._zod.def as z.core.$ZodObjectDef).shape : undefined;
}

function valueAt(value: unknown, path: TPath): unknown {
  let v = value;
  for (const seg of path) {
    if (typeof v !== "object" || v === null || typeof seg === "symbol" || !Object.hasOwn(v, seg)) return undefined;
    v = (v as Record<string, unknown>)[seg];
  }
  return v;
}

export const UNKNOWN_FIELD_MESSAGE = "Unknown field";
export const NUL_MESSAGE = "Must not contain NUL characters";
export const NUL_KEY_MESSAGE = "Keys must not contain NUL characters";
export const ILL_FORMED_MESSAGE = "Must be well-formed Unicode (no unpaired UTF-16 surrogate)";
export const ILL_FORMED_KEY_MESSAGE = "Keys must be well-formed Unicode (no unpaired UTF-16 surrogate)";

/** What a string holds that the database cannot store faithfully, as the message naming it; null when nothing. */
function unstorable(text: string, messages: { nul: string; illFormed: string }): string | null {
  if (text.includes("\u0000")) return messages.nul;
  if (!text.isWellFormed()) return messages.illFormed;
  return null;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== "object" || v === null) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/**
 * Every string (or object key) holding U+0000 or an unpaired UTF-16 surrogate (`"\ud800"`: ill-formed
 * Unicode, which JSON can carry), by dotted path. PostgreSQL's text and jsonb cannot store a NUL and the driver
 * throws on it; jsonb refuses a lone surrogate, and a text column silently stores U+FFFD instead. So either
 * reaching a query would be a 500 or a changed value; it is a 422 at the boundary instead. Iterative, so a
 * deeply nested value cannot exhaust the stack.
 */
export function nulDetails(value: unknown, root: string): TErrorDetails {
  const details: TErrorDetails = {};
  const add = detailsAdder(details, root);
  const stack: { v: unknown; path: string[] }[] = [{ v: value, path: [] }];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const { v, path } = item;
    if (typeof v === "string") {
      const problem = unstorable(v, { nul: NUL_MESSAGE, illFormed: ILL_FORMED_MESSAGE });
      if (problem) add(path, problem);
    } else if (Array.isArray(v)) {
      v.forEach((el: unknown, i) => stack.push({ v: el, path: [...path, String(i)] }));
    } else if (isPlainObject(v)) {
      for (const [k, el] of Object.entries(v)) {
        const problem = unstorable(k, { nul: NUL_KEY_MESSAGE, illFormed: ILL_FORMED_KEY_MESSAGE });
        if (problem) add(path, problem);
        else stack.push({ v: el, path: [...path, k] });
      }
    }
  }
  return details;
}

/**
 * Validates input at a boundary (route params, query, body; the CLI's options): a schema failure, or a string
 * with a NUL character or ill-formed Unicode in what the schema lets through, is a 422 with `details` by
 * dotted path.
 */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, root: string): z.output<S> {
  const result = parseInput(schema, value, root);
  if (!result.success) throw errors.validation(result.details);
  return result.data;
}

/** What `parseOrThrow` checks, answered instead of thrown: the parsed value, or the details a 422 would carry. */
export function parseInput<S extends z.ZodType>(
  schema: S,
  value: unknown,
  root: string,
): { success: true; data: z.output<S> } | { success: false; details: TErrorDetails } {
  const result = schema.safeParse(value);
  if (!result.success) return { success: false, details: issuesToDetails(result.error.issues, root, schema, value) };
  const nul = nulDetails(result.data, root);
  if (Object.keys(nul).length > 0) return { success: false, details: nul };
  return { success: true, data: result.data };
}

/** An item of a batch that its own schema refused: what a 422 would say, by paths relative to the item. */
export class RefusedItem {
  constructor(readonly details: TErrorDetails) {}
}

/**
 * An element of a batch whose fields are checked on their own (a bulk send's items): an object that `schema`
 * refuses (a wrong field, a NUL or ill-formed string: what `parseInput` checks) does not refuse the request
 * but becomes a `RefusedItem`, for the domain to report as that item's failure. A value that is not an object
 * is still the request's own 422 (at its index): there is no item to speak of.
 *
 * In the OpenAPI document the element is `schema` itself, the component `refId` (zod-to-openapi documents a
 * transform by its input, here any object, so the element points at the component, registered here).
 * `before` are components to register ahead of it: registered schemas are generated before the operations,
 * and zod-to-openapi builds a shared component from the first place it meets it, description included, so a
 * component that `schema` uses with a note of its own is listed there to keep its own description.
 */
export function checkedOnItsOwn<S extends z.ZodType>(schema: S, refId: string, before: Record<string, z.ZodType> = {}) {
  addOpenApiComponents((registry) => {
    for (const [name, component] of Object.entries(before)) registry.register(name, component);
    registry.register(refId, schema);
  });
  const slot = z
    .looseObject({})
    .transform((item): z.output<S> | RefusedItem => {
      const result = parseInput(schema, item, "item");
      return result.success ? result.data : new RefusedItem(result.details);
    })
    .openapi({ type: "object", allOf: [{ $ref: `#/components/schemas/${refId}` }] });
  itemSchemas.set(slot, schema);
  return slot;
}

const itemSchemas = new WeakMap<z.core.$ZodType, z.ZodType>();

/** The item schema behind a `checkedOnItsOwn` element (for tools that walk schemas, such as the tests' generators). */
export function itemSchemaOf(slot: z.core.$ZodType): z.ZodType | undefined {
  return itemSchemas.get(slot);
}
