import { z } from "./zod";

const WHOLE_NUMBER = "Expected a whole number";

/**
 * A whole number from the query string, where every value is text: "abc", "1.5" or "Infinity" say "Expected a
 * whole number" (zod's own text was "expected number, received NaN"). Every list's numeric parameters use it.
 */
function queryInt(bounds: { min: number; max?: number }) {
  const n = z.coerce.number({ error: WHOLE_NUMBER }).int({ error: WHOLE_NUMBER }).min(bounds.min, `At least ${bounds.min}`);
  return bounds.max === undefined ? n : n.max(bounds.max, `At most ${bounds.max}`);
}

/** The spec's pagination: page ≥ 1 (default 1), pageSize 1–100 (default 25; above 100 → 422 on pageSize). */
export const ZPageQuery = z.object({
  page: queryInt({ min: 1 }).default(1).openapi({ description: "Page number, from 1", example: 1 }),
  pageSize: queryInt({ min: 1, max: 100 }).default(25).openapi({ description: "Items per page, 1 to 100", example: 25 }),
});
export type TPageQuery = z.infer<typeof ZPageQuery>;

export function pageWindow(q: TPageQuery): { limit: number; offset: number } {
  return { limit: q.pageSize, offset: (q.page - 1) * q.pageSize };
}

/** The response shape `{ <name>: [...], totalCount, page, pageSize }` as a zod schema. */
export function pagedSchema<N extends string, T extends z.ZodType>(name: N, item: T) {
  return z.object({
    [name]: z.array(item),
    totalCount: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
  } as { [K in N]: z.ZodArray<T> } & { totalCount: z.ZodNumber; page: z.ZodNumber; pageSize: z.ZodNumber });
}
