/**
 * The documents of a template: list, add (with its upload URL), delete and convert, on the public API and as
 * the app's internal twins, plus the app's PDF stream for the editor. The upload PUT itself
 * (`app/uploads/[token]/route.ts`) is not an operation: it has no key and no session, only the URL's token;
 * it is described on `addTemplateDocument`.
 */
import { appTwin, defineOperation } from "@/server/domain/operation";
import { KEEP_ACTIVE_RULE } from "@/server/domain/templates/find-activation-blockers";
import { ZAddDocument, ZAddedDocument, ZDeleted, ZDocumentParams, ZTemplateDocument, ZTemplateParams } from "@/server/domain/templates/schemas";
import { z } from "@/server/lib/zod";

export const ZTemplateDocumentList = z.object({ documents: z.array(ZTemplateDocument) }).openapi("TemplateDocumentList");

const UPLOAD_DESCRIPTION = `Adds a document, last in the template's order. Two forms:

- **A file**: \`name\`, \`fileSize\` (bytes) and \`contentType\` (\`application/pdf\`, the default, or DOCX). A \`fileSize\`
  over the per-document limit (\`MAX_DOCUMENT_BYTES\`, 25 MB by default) is refused here with 413. The document is
  \`AWAITING_UPLOAD\`; send its bytes with \`PUT {uploadUrl}\` (no \`Authorization\` header, any \`Content-Type\`;
  the URL is the credential, valid two hours, used once).
- **A library document**: \`libraryDocumentId\` (and optionally \`name\`). The document uses the library's stored
  file (never modified), is \`UPLOADED\` at once with its pages, and \`uploadUrl\` is null.

**The upload PUT** answers 200 \`{ data: <document> }\` once the bytes were stored and checked: their SHA-256,
page count and page sizes are recorded and the document is \`UPLOADED\`. The content decides, not the name: a
declared PDF must be a complete, unencrypted PDF with pages; a declared DOCX must be a DOCX package. Refusals,
all \`{ error }\` with a message saying why:

| status | when |
| - | - |
| 404 | unknown URL (or its document was deleted) |
| 410 | the URL was already used, or has expired: add the document again for a new one |
| 413 | the body is longer than \`fileSize\` (or over \`MAX_DOCUMENT_BYTES\`) |
| 422 | the body is shorter than \`fileSize\`, or its content is not the declared kind (not a PDF, a truncated or encrypted PDF, a PDF declared as DOCX…) |

After a 413 or 422 nothing is kept, the document stays \`AWAITING_UPLOAD\` and **the URL stays unused**: PUT the
right bytes to it again while it is valid, or add the document again (and delete the first). Of two PUTs racing
on one URL, exactly one succeeds; the other gets 410.`;

const common = { tag: "Templates", params: ZTemplateParams } as const;
const write = { ...common, templateAccess: "CREATE" } as const;

export const listTemplateDocuments = defineOperation({
  ...common,
  operationId: "listTemplateDocuments",
  method: "GET",
  path: "/api/v1/templates/{templateId}/documents",
  summary: "List a template's documents in order, with their upload state",
  response: ZTemplateDocumentList,
  errors: [404],
});

export const addTemplateDocument = defineOperation({
  ...write,
  operationId: "addTemplateDocument",
  method: "POST",
  path: "/api/v1/templates/{templateId}/documents",
  summary: "Add a document (a file to upload, or a library document); returns its single-use upload URL",
  description: `${UPLOAD_DESCRIPTION}\n\n${KEEP_ACTIVE_RULE}`,
  body: ZAddDocument,
  response: ZAddedDocument,
  successStatus: 201,
  errors: [404, 409, 413],
});

export const deleteTemplateDocument = defineOperation({
  ...write,
  operationId: "deleteTemplateDocument",
  method: "DELETE",
  path: "/api/v1/templates/{templateId}/documents/{documentId}",
  summary: "Delete a document and the fields placed on it",
  description: KEEP_ACTIVE_RULE,
  params: ZDocumentParams,
  response: ZDeleted,
  errors: [404, 409],
});

export const convertTemplateDocument = defineOperation({
  ...write,
  operationId: "convertTemplateDocument",
  method: "POST",
  path: "/api/v1/templates/{templateId}/documents/{documentId}/convert",
  summary: "Convert an uploaded DOCX document to PDF",
  description:
    "Converts an uploaded DOCX with LibreOffice. The PDF becomes the document (`contentType` `application/pdf`, `fileSize`, `sha256`, pages; `convertedFromDocx: true`); the DOCX is kept unchanged. 400 for a document that is not a DOCX (`Only DOCX documents can be converted`), 409 before its upload (or while another member edits the template in the app), 422 when the conversion takes longer than `CONVERT_TIMEOUT_MS` (`The document took too long to convert…`) or the DOCX is refused as a possible ZIP bomb, 502 when the converter is missing or fails.",
  params: ZDocumentParams,
  response: ZTemplateDocument,
  errors: [400, 404, 409, 413, 502],
});

// ——— The app's own routes (/api/app/templates/…/documents): the same operations for the template editor ———

const app = { tag: "App: templates", internal: true } as const;

export const appListTemplateDocuments = appTwin(listTemplateDocuments, app.tag);
export const appAddTemplateDocument = appTwin(addTemplateDocument, app.tag);
export const appDeleteTemplateDocument = appTwin(deleteTemplateDocument, app.tag);
export const appConvertTemplateDocument = appTwin(convertTemplateDocument, app.tag);

export const appGetTemplateDocumentFile = defineOperation({
  ...common,
  ...app,
  operationId: "appGetTemplateDocumentFile",
  method: "GET",
  path: "/api/app/templates/{templateId}/documents/{documentId}/file",
  summary: "The document's stored PDF, streamed (application/pdf) for the editor's pdf.js",
  params: ZDocumentParams,
  response: z.unknown().openapi({ description: "The PDF's bytes (not JSON)" }),
  errors: [404, 409],
});
