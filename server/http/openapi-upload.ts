/**
 * `PUT /uploads/{token}` in the OpenAPI document. It is not an operation of either door (no key, no session:
 * the single-use token in the path is the credential, server/http/upload-route.ts), but it is the URL that
 * `addTemplateDocument` and `addPackageDocument` hand out, so a generated client and a validating proxy must
 * know it. Declared here, beside the document builder, from the same document schema the route answers with.
 */
import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { ZTemplateDocument } from "@/server/domain/templates/schemas";
import { z } from "@/server/lib/zod";

const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

const DESCRIPTION = `The target of an \`uploadUrl\` from addTemplateDocument or addPackageDocument: PUT the file's raw bytes
(not a form, not JSON) to the URL exactly as it was handed out.

**Security: the URL is the credential.** Send no \`Authorization\` header (one is ignored); the \`token\` path
segment is 32 random bytes, valid two hours and used once. Treat the whole URL as a secret: it is never logged.

**Any \`Content-Type\`**: the bytes decide, not the header. A declared PDF must be a complete, unencrypted PDF
with pages; a declared DOCX a DOCX package. The body's length must equal the \`fileSize\` given when the document
was added.

**The answer is the document itself**, \`{ data: <TemplateDocument> }\`, now \`UPLOADED\` with its SHA-256, page
count and page sizes: the same \`TemplateDocument\` schema as \`data.document\` in the add's answer, and as
convertTemplateDocument's answer. Adding a document answers \`{ data: { document, uploadUrl, uploadUrlExpiresAt } }\`
because it creates two things, the document and its one-time URL; the PUT spends the URL and changes only the
document, so it answers the document, as every operation that changes one document does.

After a 413 or 422 nothing is kept, the document stays \`AWAITING_UPLOAD\` and the URL stays unused: PUT the
right bytes again while it is valid. Of two PUTs racing on one URL, exactly one succeeds; the other gets 410.`;

const ERRORS: Record<number, string> = {
  400: "The path does not decode (a malformed percent-escape)",
  404: "Unknown upload URL, or its document was deleted",
  410: "The URL was already used, or has expired: add the document again for a new one",
  413: "The body is longer than the declared `fileSize`, or over `MAX_DOCUMENT_BYTES`",
  422: "The body is shorter than `fileSize`, or its content is not the declared kind (not a PDF, a truncated or encrypted PDF, a PDF declared as DOCX…)",
  500: "`Internal error`; the `X-Request-Id` header identifies the request in the server's log",
};

const requestId = { "X-Request-Id": { description: "Identifies the request in the server's log", schema: { type: "string" as const } } };

const binary = { schema: { type: "string" as const, format: "binary" } };

/** The upload PUT, with the error body schema the rest of the document uses. */
export function registerUploadPath(registry: OpenAPIRegistry, errorBody: z.ZodType): void {
  const errorResponses = Object.fromEntries(
    Object.entries(ERRORS).map(([status, description]) => [
      status,
      { description, headers: requestId, content: { "application/json": { schema: errorBody } } },
    ]),
  );
  registry.registerPath({
    method: "put",
    path: "/uploads/{token}",
    operationId: "uploadDocument",
    summary: "Upload a document's bytes to its single-use upload URL (no API key: the URL is the credential)",
    description: DESCRIPTION,
    tags: ["Uploads"],
    // No bearer key: the token in the path is the credential (an empty list declares "no scheme").
    security: [],
    request: {
      params: z.object({
        token: z
          .string()
          .openapi({ description: "The last path segment of `uploadUrl`, as handed out (base64url)", example: "Jx3c0q9TQ2m7yJx4pX2b1L0c4v8KfQ5Zr6s8uW1aB3E" }),
      }),
      body: {
        required: true,
        description: "The file's raw bytes; the `Content-Type` header is not read",
        content: { "application/pdf": binary, [DOCX]: binary, "application/octet-stream": binary },
      },
    },
    responses: {
      200: {
        description: "Stored and checked: the document, now `UPLOADED`",
        headers: requestId,
        content: { "application/json": { schema: z.object({ data: ZTemplateDocument }) } },
      },
      ...errorResponses,
    },
  });
}

export const UPLOADS_TAG = {
  name: "Uploads",
  description:
    "The upload URLs that adding a document hands out. They take the file's bytes with `PUT`, without an API key: " +
    "the URL itself is the credential, valid two hours and used once.",
};
