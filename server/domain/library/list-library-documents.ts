import { and, asc, eq, ilike, sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { libraryDocuments } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { toLibraryDocumentView } from "./library-document-view";
import { LIBRARY_SEARCH_LIMIT, type TListLibraryDocumentsQuery } from "./schemas";

/** Escapes LIKE's wildcards so a search for `50%` or `a_b` matches those characters literally. */
function likeContains(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The workspace's library documents by name ignoring case (then exact name and id: one order on every collation), matching `search` if given; at most 50. */
export async function listLibraryDocuments(db: Db, actor: TActor, query: TListLibraryDocumentsQuery) {
  const search = query.search?.trim();
  const rows = await db
    .select()
    .from(libraryDocuments)
    .where(and(eq(libraryDocuments.workspaceId, actor.workspace.id), search ? ilike(libraryDocuments.name, likeContains(search)) : undefined))
    .orderBy(sql`lower(${libraryDocuments.name})`, asc(libraryDocuments.name), asc(libraryDocuments.id))
    .limit(LIBRARY_SEARCH_LIMIT);
  return { documents: rows.map(toLibraryDocumentView) };
}
