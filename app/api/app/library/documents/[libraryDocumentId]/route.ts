import { appRoute } from "@/server/auth/app-route";
import { deleteLibraryDocument } from "@/server/domain/library/delete-library-document";
import { appDeleteLibraryDocument, appUpdateLibraryDocument } from "@/server/domain/library/operations";
import { updateLibraryDocument } from "@/server/domain/library/update-library-document";

// PATCH /api/app/library/documents/{libraryDocumentId} – rename
export const PATCH = appRoute(appUpdateLibraryDocument, ({ db, actor, params, body }) => updateLibraryDocument(db, actor, { ...params, ...body }));

// DELETE /api/app/library/documents/{libraryDocumentId} – remove from the library
export const DELETE = appRoute(appDeleteLibraryDocument, ({ db, actor, params }) => deleteLibraryDocument(db, actor, params));
