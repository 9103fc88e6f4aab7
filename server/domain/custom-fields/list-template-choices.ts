import { asc, eq, sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { templates } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";

export type TTemplateChoice = { id: string; name: string; status: string };

/** The workspace's templates by name, for the scope picker of the custom-fields page (names only). */
export async function listTemplateChoices(db: Db, actor: TActor): Promise<TTemplateChoice[]> {
  return db
    .select({ id: templates.id, name: templates.name, status: templates.status })
    .from(templates)
    .where(eq(templates.workspaceId, actor.workspace.id))
    .orderBy(sql`lower(${templates.name})`, asc(templates.id))
    .limit(500);
}
