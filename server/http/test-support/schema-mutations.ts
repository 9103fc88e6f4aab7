/**
 * Valid values and one-field mutations generated from a zod schema, for the property-style validation test
 * (validation-paths.test.ts): `exampleOf` builds a small valid value by walking the schema; `mutationsOf`
 * walks the schema beside a valid value and, for every field, yields the value with only that field made wrong
 * (a wrong type; below a minimum or above a maximum, a non-integer, a bad format; removed when required) and the
 * dotted path a 422 must name. Reads zod 4's definitions (`_zod.def`, `_zod.bag`), test-only.
 */
import type { z } from "zod";
import { itemSchemaOf } from "@/server/lib/parse";

type TSchema = z.core.$ZodType;
type TDef = z.core.$ZodTypeDef & Record<string, unknown>;
type TBag = { minimum?: number; maximum?: number; exclusiveMinimum?: number; exclusiveMaximum?: number; format?: string; patterns?: Set<RegExp> };

export type TMutationKind = "wrong type" | "too small" | "too big" | "not an integer" | "bad format" | "not an option" | "missing";
export type TMutation = {
  kind: TMutationKind;
  /** The dotted path the 422 must name (`root` for the whole value). */
  path: string;
  /** The whole value, with only this field changed. */
  value: unknown;
  /** The field's schema parses by coercion (z.coerce): its message is the schema's own, not zod's type text. */
  coerced: boolean;
  /**
   * A union's form that lost a required key may read as another form as well: then the key that form misses is
   * as right an answer (`{ name }` of a document is a file without `fileSize` or a library document without
   * `libraryDocumentId`).
   */
  alsoAccepted?: string[];
};

const def = (s: TSchema) => s._zod.def as TDef;
/** The bounds and format a schema's checks declare (a string format schema, `z.email()`, is its own first check). */
function bagOf(s: TSchema): TBag {
  const bag: TBag = {};
  const own = s._zod.traits.has("$ZodCheck") ? [s as unknown as z.core.$ZodCheck] : [];
  for (const check of [...own, ...((def(s).checks as z.core.$ZodCheck[] | undefined) ?? [])]) {
    const c = check._zod.def as z.core.$ZodCheckDef & Record<string, unknown>;
    const num = (k: string) => c[k] as number;
    const lower = (k: "minimum" | "exclusiveMinimum", v: number) => (bag[k] = Math.max(bag[k] ?? -Infinity, v));
    const upper = (k: "maximum" | "exclusiveMaximum", v: number) => (bag[k] = Math.min(bag[k] ?? Infinity, v));
    if (c.check === "greater_than") lower(c.inclusive ? "minimum" : "exclusiveMinimum", num("value"));
    else if (c.check === "less_than") upper(c.inclusive ? "maximum" : "exclusiveMaximum", num("value"));
    else if (c.check === "min_length") lower("minimum", num("minimum"));
    else if (c.check === "max_length") upper("maximum", num("maximum"));
    else if (c.check === "length_equals") {
      lower("minimum", num("length"));
      upper("maximum", num("length"));
    } else if (c.check === "number_format") bag.format = c.format as string;
    else if (c.check === "string_format") {
      bag.format = c.format as string;
      if (c.pattern instanceof RegExp) (bag.patterns ??= new Set()).add(c.pattern);
    }
  }
  return bag;
}
const WRAPPERS = new Set(["optional", "nullable", "default", "prefault", "nonoptional", "readonly", "catch"]);

/** Through the wrappers that parse the same value (optional, nullable, default…) and lazy schemas. */
function unwrapWrappers(schema: TSchema): TSchema {
  let s = schema;
  for (let i = 0; i < 32; i++) {
    const d = def(s);
    if (WRAPPERS.has(d.type)) s = d.innerType as TSchema;
    else if (d.type === "lazy") s = (d.getter as () => TSchema)();
    else break;
  }
  return s;
}

/**
 * The sides of a pipe that check the input: `a.transform(f)` → a; `z.preprocess(f, b)` → b;
 * `a.pipe(b)` → both (z.string().trim().max(320).pipe(z.email()): the length is on a, the format on b).
 */
function checkedSides(schema: TSchema): TSchema[] {
  const s = unwrapWrappers(schema);
  // An element checked on its own (a bulk send's item) is built from its item schema, not the any-object door.
  const item = itemSchemaOf(s);
  if (item) return checkedSides(item as unknown as TSchema);
  const d = def(s);
  if (d.type !== "pipe") return [s];
  const from = d.in as TSchema;
  const to = d.out as TSchema;
  if (def(to).type === "transform") return checkedSides(from);
  if (def(from).type === "transform") return checkedSides(to);
  return [...checkedSides(from), ...checkedSides(to)];
}

/** The schema a valid value is built from: the last checked side (a value it accepts passes the others here). */
const unwrap = (schema: TSchema) => checkedSides(schema).at(-1)!;

/** Is the field required (neither optional nor defaulted)? */
const isRequired = (s: TSchema) => s._zod.optin === undefined;
const accepts = (s: TSchema, v: unknown) => (s as unknown as z.ZodType).safeParse(v).success;

/** A small valid value for `schema`; `seed` varies strings so that several items of one array differ. */
export function exampleOf(schema: TSchema, seed = 0): unknown {
  const s = unwrap(schema);
  const d = def(s);
  const bag = bagOf(s);
  switch (d.type) {
    case "string": {
      if (bag.format === "email") return `person${seed || ""}@example.com`;
      if (bag.format === "url") return `https://example.com/${seed}`;
      if (bag.format === "datetime") return "2030-01-01T09:00:00.000Z";
      if (bag.format === "date") return "2030-12-31";
      const base = `a${seed ? String.fromCharCode(97 + (seed % 26)) + String(seed) : ""}`;
      const min = bag.minimum ?? 0;
      const text = base.length >= min ? base : base + "a".repeat(min - base.length);
      return bag.maximum !== undefined ? text.slice(0, Math.max(bag.maximum, min)) : text;
    }
    case "number": {
      const lo = bag.minimum ?? (bag.exclusiveMinimum !== undefined ? bag.exclusiveMinimum + 1 : undefined);
      const hi = bag.maximum ?? (bag.exclusiveMaximum !== undefined ? bag.exclusiveMaximum - 1 : undefined);
      let n = Math.max(1, lo ?? 1);
      if (hi !== undefined && n > hi) n = hi;
      return Math.ceil(n);
    }
    case "bigint":
      return 1;
    case "boolean":
      return true;
    case "null":
      return null;
    case "date":
      return "2030-01-01T09:00:00.000Z";
    case "enum":
      return Object.values(d.entries as Record<string, unknown>)[0];
    case "literal":
      return (d.values as unknown[])[0];
    case "object": {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(d.shape as Record<string, TSchema>)) out[k] = exampleOf(v, seed);
      return out;
    }
    case "array": {
      const n = Math.max(1, bagOf(s).minimum ?? 0);
      return Array.from({ length: n }, (_, i) => exampleOf(d.element as TSchema, seed * 100 + i));
    }
    case "record":
      return { key1: exampleOf(d.valueType as TSchema, seed) };
    case "tuple":
      return (d.items as TSchema[]).map((item, i) => exampleOf(item, seed * 100 + i));
    case "union":
      return exampleOf((d.options as TSchema[])[0]!, seed);
    default:
      return "x";
  }
}

/** Values of another JSON type than the schema accepts (the first one it refuses is used). */
function wrongTypes(s: TSchema): unknown[] {
  switch (def(s).type) {
    case "string":
    case "date":
      return [12345, true, {}];
    case "number":
    case "bigint":
      return ["12", true];
    case "boolean":
      return ["true", 1];
    case "object":
    case "record":
      return ["x", 5, []];
    case "array":
      return ["x", {}];
    case "union":
      return [12345, "x", true, {}];
    default:
      return [];
  }
}

function setAt(root: unknown, path: readonly (string | number)[], value: unknown, remove = false): unknown {
  if (path.length === 0) return value;
  const copy: unknown = structuredClone(root);
  let parent = copy as Record<string | number, unknown>;
  for (const seg of path.slice(0, -1)) parent = parent[seg] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (remove) delete parent[last];
  else parent[last] = value;
  return copy;
}

/**
 * Every single-field mutation of `valid` (which `schema` accepts), by walking both. `root` names the whole
 * value in the dotted path (`body`). Object keys are visited whether required or not; array items, record
 * values and tuple items through their first entry.
 */
export function mutationsOf(schema: TSchema, valid: unknown, root: string): TMutation[] {
  const out: TMutation[] = [];
  const seen = new Set<string>();
  const pushAt = (path: (string | number)[], kind: TMutationKind, value: unknown, coerced: boolean, alsoAccepted?: string[]) => {
    const key = path.length ? path.join(".") : root;
    // A change another form of a union accepts is no error (the test counts what it generated).
    if (seen.has(`${kind} ${key}`) || accepts(schema, value)) return;
    seen.add(`${kind} ${key}`);
    out.push({ kind, path: key, value, coerced, ...(alsoAccepted?.length ? { alsoAccepted } : {}) });
  };
  /** `field` is the schema at `path` as declared; `forms`, when it is one form of a union, all of them. */
  const walk = (field: TSchema, value: unknown, path: (string | number)[], forms: readonly TSchema[] = []) => {
    const coerced = checkedSides(field).some((side) => def(side).coerce === true);
    // Only mutations the field itself refuses: the test is about where the refusal is reported.
    const push = (kind: TMutationKind, v: unknown) => {
      if (!accepts(field, v)) pushAt(path, kind, setAt(valid, path, v), coerced);
    };
    for (const s of checkedSides(field)) {
      const d = def(s);
      const bag = bagOf(s);
      const wrong = wrongTypes(s).find((v) => !accepts(field, v));
      if (wrong !== undefined) push("wrong type", wrong);

      if (d.type === "string" && typeof value === "string") {
        if (bag.minimum !== undefined && bag.minimum > 0) push("too small", value.slice(0, bag.minimum - 1));
        if (bag.maximum !== undefined) push("too big", "a".repeat(bag.maximum + 1));
        if (bag.format || bag.patterns?.size) push("bad format", "!bad value!");
      }
      if (d.type === "number" && typeof value === "number") {
        if (bag.minimum !== undefined) push("too small", bag.minimum - 1);
        if (bag.exclusiveMinimum !== undefined) push("too small", bag.exclusiveMinimum);
        if (bag.maximum !== undefined && bag.maximum < Number.MAX_SAFE_INTEGER) push("too big", bag.maximum + 1);
        if (bag.exclusiveMaximum !== undefined) push("too big", bag.exclusiveMaximum);
        if (bag.format === "safeint" || bag.format === "int32") push("not an integer", value + 0.5);
      }
      if (d.type === "enum" || d.type === "literal") push("not an option", "not-an-option");
      if (d.type === "array" && Array.isArray(value)) {
        if (bag.minimum !== undefined && bag.minimum > 0) push("too small", value.slice(0, bag.minimum - 1));
        if (bag.maximum !== undefined)
          push(
            "too big",
            Array.from({ length: bag.maximum + 1 }, (_, i) => exampleOf(d.element as TSchema, i + 1)),
          );
        if (value.length > 0) walk(d.element as TSchema, value[0], [...path, 0]);
      }
      if (d.type === "record" && value && typeof value === "object") {
        const [first] = Object.keys(value);
        if (first !== undefined) walk(d.valueType as TSchema, (value as Record<string, unknown>)[first], [...path, first]);
      }
      if (d.type === "object" && value && typeof value === "object") {
        for (const [k, child] of Object.entries(d.shape as Record<string, TSchema>)) {
          const childPath = [...path, k];
          if (isRequired(child)) {
            const mutated = setAt(valid, childPath, undefined, true);
            const rest = Object.keys(value).filter((other) => other !== k);
            const shapeOf = (form: TSchema) => def(unwrap(form)).shape as Record<string, TSchema>;
            const declared = (form: TSchema) => rest.filter((other) => Object.hasOwn(shapeOf(form), other)).length;
            const others = forms
              .filter((form) => form !== field && declared(form) >= declared(field))
              .flatMap((form) => Object.entries(shapeOf(form)))
              .filter(([other, schema]) => isRequired(schema) && !rest.includes(other))
              .map(([other]) => [...path, other].join("."));
            pushAt(
              childPath,
              "missing",
              mutated,
              checkedSides(child).some((side) => def(side).coerce === true),
              others,
            );
          }
          if (Object.hasOwn(value, k)) walk(child, (value as Record<string, unknown>)[k], childPath);
        }
      }
      if (d.type === "union" && value && typeof value === "object") {
        // The fields of the form the valid value takes (the first that accepts it).
        const form = (d.options as TSchema[]).find((o) => accepts(o, value));
        if (form) walk(form, value, path, d.options as TSchema[]);
      }
    }
  };
  walk(schema, valid, []);
  return out;
}
