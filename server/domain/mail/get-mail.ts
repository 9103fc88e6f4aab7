import { and, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { mailMessages } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { errors } from "@/server/lib/errors";
import { mailDetailView } from "./mail-view";
import { mailVisibility } from "./mail-visibility";

/** One message with its HTML and links; 404 for a message of another workspace or one the actor may not see. */
export async function getMail(db: Db, actor: TActor, input: { messageId: string }) {
  const [row] = await db
    .select()
    .from(mailMessages)
    .where(and(eq(mailMessages.id, input.messageId), mailVisibility(db, actor)));
  if (!row) throw errors.notFound("Message");
  return mailDetailView(row);
}
