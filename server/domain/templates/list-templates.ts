import { and, count, desc, eq, getTableName, ilike, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { documents, templateFields, templateRoles, templates } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { pageWindow } from "@/server/lib/pagination";
import type { z } from "@/server/lib/zod";
import type { ZListTemplatesQuery } from "./schemas";
import { toTemplateSummaryView } from "./template-view";

export type TListTemplatesInput = z.output<typeof ZListTemplatesQuery>;

/** `%`, `_` and `\` in a search are literal characters, not patterns. */
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The workspace's templates, newest `updatedAt` first, paged, with their document, role and field counts. */
export async function listTemplates(db: Db, actor: TActor, input: TListTemplatesInput) {
  const { limit, offset } = pageWindow(input);
  const conditions: SQL[] = [eq(templates.workspaceId, actor.workspace.id)];
  if (input.status && input.status !== "all") conditions.push(eq(templates.status, input.status));
  if (input.search) conditions.push(ilike(templates.name, `%${escapeLike(input.search)}%`));
  const where = and(...conditions);
  // Column references are spelt out qualified: drizzle renders columns bare, which inside the subquery would
  // resolve to the counted table's own `id`.
  const countOf = (table: typeof documents | typeof templateRoles | typeof templateFields) =>
    sql<number>`(select count(*)::int from ${sql.identifier(getTableName(table))} c where c.template_id = ${sql.identifier(getTableName(templates))}.id)`;
  const [rows, [total]] = await Promise.all([
    db
      .select({ row: templates, documentCount: countOf(documents), roleCount: countOf(templateRoles), fieldCount: countOf(templateFields) })
      .from(templates)
      .where(where)
      .orderBy(desc(templates.updatedAt), desc(templates.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(templates).where(where),
  ]);
  return {
    templates: rows.map(({ row, ...counts }) => toTemplateSummaryView(row, counts)),
    totalCount: total?.n ?? 0,
    page: input.page,
    pageSize: input.pageSize,
  };
}
