import { listLibraryDocuments } from "@/server/domain/library/list-library-documents";
import { listLibraryDocuments as listLibraryDocumentsOp } from "@/server/domain/library/operations";
import { apiRoute } from "@/server/http/api-route";

// GET /api/v1/library/documents – search the workspace's library by name (at most 50)
export const GET = apiRoute(listLibraryDocumentsOp, ({ db, actor, query }) => listLibraryDocuments(db, actor, query));
