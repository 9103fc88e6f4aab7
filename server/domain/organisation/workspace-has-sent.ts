import { eq, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { packages, workspaces } from "@/server/db/schema";

/**
 * Whether a workspace has ever sent a package: one of its packages (deleted ones included) has left DRAFT. Such a
 * workspace keeps its mode (test or live) for good, and a live one is never deleted: its packages are evidence.
 * `hasSent` is the expression, on the row of `workspaces` a query selects (the list shows it).
 */
export const hasSent: SQL<boolean> = sql<boolean>`exists (select 1 from ${packages} p where p.workspace_id = ${workspaces}.id and p.status <> 'DRAFT')`;

export async function workspaceHasSent(db: Db, workspaceId: string): Promise<boolean> {
  const [row] = await db.select({ sent: hasSent }).from(workspaces).where(eq(workspaces.id, workspaceId));
  return row?.sent === true;
}
