import type { Db } from "@/server/db/client";
import type { TActor } from "@/server/domain/access/actor";
import { listDocuments } from "@/server/domain/documents/list-documents";
import type { TPackageRef } from "./schemas";

/** The package's documents with their upload state, in order (404 for a package the actor cannot see). */
export async function listPackageDocuments(db: Db, actor: TActor, input: TPackageRef) {
  const { documents } = await listDocuments(db, actor, { owner: { packageId: input.packageId } });
  return { documents: documents.map((d, position) => ({ ...d, position })) };
}
