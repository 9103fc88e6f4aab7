/**
 * The packages capability's operations (api-map ops 3–26): the public API and the app's internal twins
 * (`/api/app/packages/…`, prefixed `app`), which act in the signed-in member's current workspace.
 */
import { defineOperation, type TOperation } from "@/server/domain/operation";
import { ZPageQuery } from "@/server/lib/pagination";
import {
  ZAddedPackageDocument,
  ZAddPackageDocument,
  ZAddRecipient,
  ZAuditEventList,
  ZBulkResult,
  ZBulkSend,
  ZCreateFromTemplate,
  ZCreatePackage,
  ZDeletedDocument,
  ZDeletedPackage,
  ZDeletedRecipient,
  ZFileResponse,
  ZListPackagesQuery,
  ZPackage,
  ZPackageDocument,
  ZPackageDocumentList,
  ZPackageDocumentParams,
  ZPackageList,
  ZPackageParams,
  ZPackageSessionParams,
  ZPackageShare,
  ZPackageShareList,
  ZPackageShareParams,
  ZRemindPackage,
  ZRemindResult,
  ZRemovedShare,
  ZSendPackage,
  ZSharePackage,
  ZSigningUrl,
  ZSigningUrlBody,
  ZTransferPackage,
  ZUpdatePackage,
  ZUpdateRecipient,
  ZVoidPackage,
} from "./schemas";

const tag = "Packages";
const send = { permission: "canSendPackages" } as const;
// Actions on a sent package need canSendPackages like sending (docs/decisions/actions-on-sent-packages.md):
// declared here where only the actor decides; where the package's state decides (a DRAFT needs none), the
// domain function checks it (assert-can-act-on.ts) and the description says so.
const onSent = "Needs canSendPackages, like sending (403 `Missing permission: canSendPackages`).";
const beyondDraft = "A DRAFT needs no permission; any other package needs canSendPackages, like sending (403 `Missing permission: canSendPackages`).";

export const listPackagesOp = defineOperation({
  tag,
  operationId: "listPackages",
  method: "GET",
  path: "/api/v1/packages",
  summary: "List packages you can see, newest updatedAt first",
  description: "Without canViewAllPackages: only packages your key's issuer owns or was shared, and those this key created.",
  query: ZListPackagesQuery,
  response: ZPackageList,
});
export const createPackageOp = defineOperation({
  tag,
  operationId: "createPackage",
  method: "POST",
  path: "/api/v1/packages",
  summary: "Create a blank DRAFT package without a template",
  body: ZCreatePackage,
  response: ZPackage,
  successStatus: 201,
  errors: [409],
});
export const createPackageFromTemplateOp = defineOperation({
  tag,
  operationId: "createPackageFromTemplate",
  method: "POST",
  path: "/api/v1/packages/from-template",
  summary: "Create a package from an ACTIVE template (201), or get the one with this externalId (200); optionally send or schedule it",
  body: ZCreateFromTemplate,
  response: ZPackage,
  successStatus: 201,
  errors: [400, 404, 409],
});
export const bulkSendPackagesOp = defineOperation({
  ...send,
  tag,
  operationId: "bulkSendPackages",
  method: "POST",
  path: "/api/v1/packages/bulk-send",
  summary: "Create and send up to 100 packages from one template; per-item results",
  body: ZBulkSend,
  response: ZBulkResult,
  errors: [404],
});
export const getPackageOp = defineOperation({
  tag,
  operationId: "getPackage",
  method: "GET",
  path: "/api/v1/packages/{packageId}",
  summary: "A package with its recipient sessions (signing order) and documents",
  description: "`scheduleError` is set when a scheduled send was refused when due (the package is a DRAFT again; see sendPackage).",
  params: ZPackageParams,
  response: ZPackage,
  errors: [404],
});
export const updatePackageOp = defineOperation({
  tag,
  operationId: "updatePackage",
  method: "PATCH",
  path: "/api/v1/packages/{packageId}",
  summary: "Change a DRAFT or SCHEDULED package; moving sendAt emits PACKAGE_SCHEDULED again",
  description: beyondDraft,
  params: ZPackageParams,
  body: ZUpdatePackage,
  response: ZPackage,
  errors: [400, 404, 409],
});
export const deletePackageOp = defineOperation({
  tag,
  operationId: "deletePackage",
  method: "DELETE",
  path: "/api/v1/packages/{packageId}",
  summary: "Delete a package (later reads are 404); scheduled, in-progress and on-hold packages emit PACKAGE_DELETED and cancel open sessions",
  description: beyondDraft,
  params: ZPackageParams,
  response: ZDeletedPackage,
  errors: [404],
});
export const sendPackageOp = defineOperation({
  ...send,
  tag,
  operationId: "sendPackage",
  method: "POST",
  path: "/api/v1/packages/{packageId}/send",
  summary: "Send a DRAFT (or SCHEDULED) package now, or schedule it with a future sendAt",
  description:
    "Checked in this order: only DRAFT/SCHEDULED (400), a document and every document uploaded (409), no edit lock (409), no unanswered required sender question (400), a recipient (400) within the plan limit (402), expiry not passed (422 at expiresAt), credit left (402). Consumes one package of the allowance when it goes out. A scheduled package is sent by the service when `sendAt` passes, with the same checks; when that send is refused (no credit, a document missing, an edit lock, expiry passed…) the package goes back to DRAFT with `sendAt` null and `scheduleError` set to the refusal (read it with getPackage; no webhook event is sent for it). Sending or scheduling again clears it.",
  params: ZPackageParams,
  body: ZSendPackage,
  response: ZPackage,
  errors: [400, 404, 409],
});
export const voidPackageOp = defineOperation({
  ...send,
  tag,
  operationId: "voidPackage",
  method: "POST",
  path: "/api/v1/packages/{packageId}/void",
  summary: "Void a sent package that has not ended",
  description: onSent,
  params: ZPackageParams,
  body: ZVoidPackage,
  response: ZPackage,
  errors: [400, 404, 409],
});
export const holdPackageOp = defineOperation({
  ...send,
  tag,
  operationId: "holdPackage",
  method: "POST",
  path: "/api/v1/packages/{packageId}/hold",
  summary: "Put an IN_PROGRESS package on hold",
  description: onSent,
  params: ZPackageParams,
  response: ZPackage,
  errors: [404, 409],
});
export const resumePackageOp = defineOperation({
  ...send,
  tag,
  operationId: "resumePackage",
  method: "POST",
  path: "/api/v1/packages/{packageId}/resume",
  summary: "Resume a package on hold; its expiry moves later by the time on hold",
  description: onSent,
  params: ZPackageParams,
  response: ZPackage,
  errors: [404, 409],
});
export const transferPackageOp = defineOperation({
  tag,
  operationId: "transferPackage",
  method: "POST",
  path: "/api/v1/packages/{packageId}/transfer",
  summary: "Give the package to another member of the organisation",
  description: beyondDraft,
  params: ZPackageParams,
  body: ZTransferPackage,
  response: ZPackage,
  errors: [400, 404],
});
export const remindPackageOp = defineOperation({
  ...send,
  tag,
  operationId: "remindPackage",
  method: "POST",
  path: "/api/v1/packages/{packageId}/remind",
  summary: "Remind open sessions now (SESSION_REMINDED, trigger manual)",
  description: onSent,
  params: ZPackageParams,
  body: ZRemindPackage,
  response: ZRemindResult,
  errors: [404, 409],
});
export const createSigningUrlOp = defineOperation({
  ...send,
  tag,
  operationId: "createSigningUrl",
  method: "POST",
  path: "/api/v1/packages/{packageId}/signing-url",
  summary: "A 60-minute signing link for a recipient whose turn it is",
  description: onSent,
  params: ZPackageParams,
  body: ZSigningUrlBody,
  response: ZSigningUrl,
  errors: [404, 409],
});
export const listPackageDocumentsOp = defineOperation({
  tag,
  operationId: "listPackageDocuments",
  method: "GET",
  path: "/api/v1/packages/{packageId}/documents",
  summary: "The package's documents with their upload state",
  params: ZPackageParams,
  response: ZPackageDocumentList,
  errors: [404],
});
export const addPackageDocumentOp = defineOperation({
  tag,
  operationId: "addPackageDocument",
  method: "POST",
  path: "/api/v1/packages/{packageId}/documents",
  summary: "Add a document to a DRAFT package (a PDF or DOCX to upload, or a library document); PUT the bytes to uploadUrl",
  description:
    "The same upload flow as a template's document (see addTemplateDocument): a `fileSize` over `MAX_DOCUMENT_BYTES` is 413, the single-use `uploadUrl` takes the bytes with `PUT` and checks their content. Only while the package is a DRAFT: 409 once it is scheduled or sent, and while another member edits it in the app. A DOCX must be converted (convertPackageDocument) before the package can be sent (sending with an unconverted DOCX is 409).",
  params: ZPackageParams,
  body: ZAddPackageDocument,
  response: ZAddedPackageDocument,
  successStatus: 201,
  errors: [404, 409, 413],
});
export const deletePackageDocumentOp = defineOperation({
  tag,
  operationId: "deletePackageDocument",
  method: "DELETE",
  path: "/api/v1/packages/{packageId}/documents/{documentId}",
  summary: "Remove a document (and its fields) from a DRAFT package; 409 once scheduled or sent",
  params: ZPackageDocumentParams,
  response: ZDeletedDocument,
  errors: [404, 409],
});
export const convertPackageDocumentOp = defineOperation({
  tag,
  operationId: "convertPackageDocument",
  method: "POST",
  path: "/api/v1/packages/{packageId}/documents/{documentId}/convert",
  summary: "Convert an uploaded DOCX document of a DRAFT package to PDF",
  description:
    "As convertTemplateDocument: LibreOffice converts the uploaded DOCX; the PDF becomes the document (`convertedFromDocx: true`) and the DOCX is kept unchanged. Not automatic after the upload: call it once the PUT succeeded, before sending. 400 for a document that is not a DOCX, 409 before its upload, once the package is no longer a DRAFT or while another member edits it, 422 when the conversion takes longer than `CONVERT_TIMEOUT_MS` (`The document took too long to convert…`) or the DOCX is refused as a possible ZIP bomb, 502 when the converter is missing or fails.",
  params: ZPackageDocumentParams,
  response: ZPackageDocument.omit({ position: true }),
  errors: [400, 404, 409, 413, 502],
});
export const addRecipientOp = defineOperation({
  tag,
  operationId: "addRecipient",
  method: "POST",
  path: "/api/v1/packages/{packageId}/recipients",
  summary: "Correction: add a recipient (packages that have not ended)",
  description: beyondDraft,
  params: ZPackageParams,
  body: ZAddRecipient,
  response: ZPackage,
  successStatus: 201,
  errors: [404, 409],
});
export const updateRecipientOp = defineOperation({
  tag,
  operationId: "updateRecipient",
  method: "PATCH",
  path: "/api/v1/packages/{packageId}/recipients/{sessionId}",
  summary: "Correction: change a recipient's email or name; an invited recipient is invited again",
  description: beyondDraft,
  params: ZPackageSessionParams,
  body: ZUpdateRecipient,
  response: ZPackage,
  errors: [404, 409],
});
export const removeRecipientOp = defineOperation({
  tag,
  operationId: "removeRecipient",
  method: "DELETE",
  path: "/api/v1/packages/{packageId}/recipients/{sessionId}",
  summary: "Correction: remove a recipient (SESSION_CANCELLED if open; the session id disappears)",
  description: beyondDraft,
  params: ZPackageSessionParams,
  response: ZDeletedRecipient,
  errors: [404, 409],
});
export const downloadPackageOp = defineOperation({
  tag,
  operationId: "downloadPackage",
  method: "GET",
  path: "/api/v1/packages/{packageId}/download",
  summary: "The sealed documents and the certificate merged into one signed PDF",
  description:
    "Streams `application/pdf`: every sealed document, then the certificate of completion, with one PAdES signature over the whole file. 409 `The package is not completed yet` before PACKAGE_COMPLETED; 413 when the merged file is larger than this instance serves merged (`MAX_MERGED_DOWNLOAD_BYTES`, 100 MB by default): download the zip instead.",
  params: ZPackageParams,
  response: ZFileResponse,
  binaryResponse: "application/pdf",
  errors: [404, 409, 413],
});
export const downloadPackageZipOp = defineOperation({
  tag,
  operationId: "downloadPackageZip",
  method: "GET",
  path: "/api/v1/packages/{packageId}/download/zip",
  summary: "Every sealed document and the certificate, as a zip",
  description:
    "Streams `application/zip`: one signed PDF per document (each with the certificate appended) and `certificate.pdf`. 409 `The package is not completed yet` before PACKAGE_COMPLETED.",
  params: ZPackageParams,
  response: ZFileResponse,
  binaryResponse: "application/zip",
  errors: [404, 409],
});
export const getPackageCertificateOp = defineOperation({
  tag,
  operationId: "getPackageCertificate",
  method: "GET",
  path: "/api/v1/packages/{packageId}/certificate",
  summary: "The certificate of completion alone, signed",
  description:
    "Streams `application/pdf`: the certificate listing the documents with the SHA-256 of each original and sealed file and of the merged PDF, the recipients, the event trail and its hash-chain head. 409 `The package is not completed yet` before PACKAGE_COMPLETED.",
  params: ZPackageParams,
  response: ZFileResponse,
  binaryResponse: "application/pdf",
  errors: [404, 409],
});
export const listPackageAuditEventsOp = defineOperation({
  tag,
  operationId: "listPackageAuditEvents",
  method: "GET",
  path: "/api/v1/packages/{packageId}/audit-events",
  summary: "The package's audit events, newest first",
  params: ZPackageParams,
  query: ZPageQuery,
  response: ZAuditEventList,
  errors: [404],
});

// ——— The app's own twins: same schemas and gates, internal, for the packages pages ———

type TAppTwin<O extends TOperation> = Omit<O, "operationId" | "path" | "tag" | "internal"> & {
  operationId: string;
  path: `/api/app${string}`;
  tag: string;
  internal: true;
};

function appTwin<const O extends TOperation>(op: O): TAppTwin<O> {
  const name = op.operationId.charAt(0).toUpperCase() + op.operationId.slice(1);
  return defineOperation({
    ...op,
    tag: "App: packages",
    internal: true as const,
    operationId: `app${name}`,
    path: op.path.replace("/api/v1/", "/api/app/") as `/api/app${string}`,
  }) as TAppTwin<O>;
}

export const appListPackagesOp = appTwin(listPackagesOp);
export const appCreatePackageFromTemplateOp = appTwin(createPackageFromTemplateOp);
export const appGetPackageOp = appTwin(getPackageOp);
export const appUpdatePackageOp = appTwin(updatePackageOp);
export const appDeletePackageOp = appTwin(deletePackageOp);
export const appSendPackageOp = appTwin(sendPackageOp);
export const appVoidPackageOp = appTwin(voidPackageOp);
export const appHoldPackageOp = appTwin(holdPackageOp);
export const appResumePackageOp = appTwin(resumePackageOp);
export const appTransferPackageOp = appTwin(transferPackageOp);
export const appRemindPackageOp = appTwin(remindPackageOp);
export const appCreateSigningUrlOp = appTwin(createSigningUrlOp);
export const appListPackageAuditEventsOp = appTwin(listPackageAuditEventsOp);
export const appDownloadPackageOp = appTwin(downloadPackageOp);
export const appDownloadPackageZipOp = appTwin(downloadPackageZipOp);
export const appGetPackageCertificateOp = appTwin(getPackageCertificateOp);

// ——— Shares: the app only (the public API's operations are fixed by the api-map; visibility honours shares) ———

const shares = { tag: "App: packages", internal: true } as const;
const shareRule =
  "Only the package's owner, or a member who holds canViewAllPackages, may add or remove shares (403 otherwise); anyone who sees the package may list them.";

export const appListPackageSharesOp = defineOperation({
  ...shares,
  operationId: "appListPackageShares",
  method: "GET",
  path: "/api/app/packages/{packageId}/shares",
  summary: "The members a package is shared with, oldest share first",
  description: shareRule,
  params: ZPackageParams,
  response: ZPackageShareList,
  errors: [404],
});
export const appSharePackageOp = defineOperation({
  ...shares,
  operationId: "appSharePackage",
  method: "POST",
  path: "/api/app/packages/{packageId}/shares",
  summary: "Share a package with a member of the organisation (201; 200 with the existing share when it was already shared)",
  description: `${shareRule} The member must be a current member of the organisation (422 on userId) and not the package's owner (400). Packages of any status can be shared, ended ones included. Sharing again changes nothing and records no second audit event.`,
  params: ZPackageParams,
  body: ZSharePackage,
  response: ZPackageShare,
  successStatus: 201,
  errors: [400, 404],
});
export const appUnsharePackageOp = defineOperation({
  ...shares,
  operationId: "appUnsharePackage",
  method: "DELETE",
  path: "/api/app/packages/{packageId}/shares/{userId}",
  summary: "Stop sharing a package with a member",
  description: `${shareRule} 404 when the package is not shared with that user.`,
  params: ZPackageShareParams,
  response: ZRemovedShare,
  errors: [404],
});

// ——— Signer authentication: the app only (the public API unlocks with a correction: PATCH …/recipients/{sessionId}) ———

export const appUnlockRecipientAuthenticationOp = defineOperation({
  tag: "App: packages",
  internal: true,
  operationId: "appUnlockRecipientAuthentication",
  method: "POST",
  path: "/api/app/packages/{packageId}/recipients/{sessionId}/authentication/unlock",
  summary: "Unlock a recipient locked after 5 wrong codes (the method and code stay; the count starts again)",
  description: `${beyondDraft} 409 when the recipient is not locked or the package has ended. The public API unlocks by correcting the recipient's \`authentication\`.`,
  params: ZPackageSessionParams,
  response: ZPackage,
  errors: [404, 409],
});
