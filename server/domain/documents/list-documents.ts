import { asc } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { documents } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { toDocumentView } from "./document-view";
import { findDocumentOwner, type TDocumentOwner } from "./find-document-owner";

/** The owner's documents in their order (404 when the owner is not in the actor's workspace). */
export async function listDocuments(db: Db, actor: TActor, input: { owner: TDocumentOwner }) {
  const owner = await findDocumentOwner(db, actor, input.owner);
  const rows = await db.select().from(documents).where(owner.owns).orderBy(asc(documents.position), asc(documents.createdAt));
  return { documents: rows.map(toDocumentView) };
}
