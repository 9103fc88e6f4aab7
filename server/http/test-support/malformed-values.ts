/**
 * What the generated malformed-request run (../malformed-requests.test.ts) sends: a seeded PRNG (mulberry32, so a
 * failure replays exactly), the malformed values a param, query, body leaf or whole body is replaced by, and
 * the walk over a valid body that finds every node with its path.
 */

export function prng(seed: number) {
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
export const ILL_FORMED = (s: string) => ["\ud800", `${s}\udfff`, `\ud83d${s}`, `${s}\udc00${s}`, "\ude00\ud83d"];

/** Values of every JSON type and the edges of each: what a leaf of a valid body is replaced by. */
export const WEIRD_VALUES: readonly unknown[] = [
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
export const WEIRD_PARAMS = [
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
export const BAD_SEGMENTS = ["%ff", "%", "%E0%A4%A", "%ED%A0%80", "%C0%AF", "a%zz", "%f0%9f%98", "x%"];

/** Raw query values; each is sent as is, percent-encoding (good or bad) included. */
export const WEIRD_QUERY = [
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
export function rawBodies(example: unknown): (string | Uint8Array)[] {
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

export type TPath = (string | number)[];
type TNode = { path: TPath; value: unknown };

export function nodesOf(value: unknown, at: TPath = []): TNode[] {
  const out: TNode[] = [{ path: at, value }];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...nodesOf(v, [...at, i])));
  else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) out.push(...nodesOf(v, [...at, k]));
  return out;
}

export function replaceAt(root: unknown, at: TPath, replacement: unknown): unknown {
  if (at.length === 0) return replacement;
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let node = copy;
  for (const seg of at.slice(0, -1)) node = node[seg] as Record<string | number, unknown>;
  node[at.at(-1)!] = replacement;
  return copy;
}
