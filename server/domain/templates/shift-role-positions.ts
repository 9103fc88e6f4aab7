import { and, between, eq, gte, sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { templateRoles } from "@/server/db/schema";

/** Far above any real position: the parking range while positions move. */
const PARK = 1_000_000;

/**
 * Moves the roles at positions `from`..`to` (inclusive; `to` omitted: to the end) by `delta`. The unique index
 * on (template, position) is checked row by row, so the rows are first parked out of the way and then set
 * down at their new places: two statements, never a transient duplicate, whatever order the rows update in.
 * The caller holds the template row locked, so nobody else moves positions meanwhile.
 */
export async function shiftRolePositions(tx: Db, templateId: string, range: { from: number; to?: number }, delta: number): Promise<void> {
  const inRange = range.to === undefined ? gte(templateRoles.position, range.from) : between(templateRoles.position, range.from, range.to);
  await tx
    .update(templateRoles)
    .set({ position: sql`${templateRoles.position} + ${PARK}` })
    .where(and(eq(templateRoles.templateId, templateId), inRange));
  await tx
    .update(templateRoles)
    .set({ position: sql`${templateRoles.position} - ${PARK - delta}` })
    .where(and(eq(templateRoles.templateId, templateId), gte(templateRoles.position, PARK)));
}
