import { z } from "./zod";

/** The spec's pagination: page ≥ 1 (default 1), pageSize 1–100 (default 25; above 100 → 422 on pageSize). */
export const ZPageQuery = z.object({
  page: z.coerce.number().int().min(1).default(1).openapi({ description: "Page number, from 1", example: 1 }),
  pageSize: z.coerce.number().int().min(1).max(100).default(25).openapi({ description: "Items per page, 1 to 100", example: 25 }),
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
