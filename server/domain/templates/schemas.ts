/**
 * Every schema of the templates capability (templates, their roles, fields, merge fields, sender questions
 * and documents), for both doors. Field geometry: `page` is 1-based; `x`, `y`, `width`, `height` are PDF
 * points from the page's top-left corner as displayed (rotation applied); a field lies inside its page.
 */
import { DOCUMENT_UPLOAD_STATES, FIELD_TYPES, TEMPLATE_STATUSES } from "@/server/db/schema";
import { pagedSchema, ZPageQuery } from "@/server/lib/pagination";
import { valueError, z } from "@/server/lib/zod";
import { ZSignerAuthMethod } from "@/server/domain/packages/recipient-authentication";

export const ZTime = z.string().openapi({ format: "date-time", example: "2030-01-01T12:00:00.000Z" });

export const ZTemplateStatus = z.enum(TEMPLATE_STATUSES).openapi({
  description:
    "DRAFT on creation. DRAFT → ACTIVE needs at least one uploaded PDF document, one role and a required signature field for every role; ACTIVE ↔ ARCHIVED; ACTIVE or ARCHIVED → DRAFT is allowed (packages already created keep their own copy)",
});

export const ZTemplateParams = z.object({ templateId: z.string().min(1).openapi({ example: "tpl_0190f3c2a1b4c5d6e7f8091a2b3c4d5e6f708192a3b4" }) });
export const ZDocumentParams = ZTemplateParams.extend({ documentId: z.string().min(1) });
export const ZFieldParams = ZTemplateParams.extend({ fieldId: z.string().min(1) });
export const ZRoleParams = ZTemplateParams.extend({
  // A string pipe rather than z.coerce: a coerced value's input is `unknown`, which the OpenAPI generator
  // renders as an optional parameter, and path parameters must be required.
  roleIndex: z
    .string()
    .regex(/^\d{1,9}$/, "A role index is a whole number from 0")
    .transform(Number)
    .openapi({ type: "integer", description: "The role's 0-based position in signing order", example: 0 }),
});
/** Domain inputs: the operation's params (and body or query) merged, as the route parsed them. */
export type TTemplateRef = z.output<typeof ZTemplateParams>;
export type TFieldRef = z.output<typeof ZFieldParams>;
export type TRoleRef = z.output<typeof ZRoleParams>;

const ZKey = z
  .string()
  .trim()
  .min(1, "Enter a key")
  .max(64, "At most 64 characters")
  .regex(/^[A-Za-z][A-Za-z0-9_.-]*$/, "Letters, digits, `_`, `.` and `-`, starting with a letter");

export const ZMergeField = z
  .object({
    key: ZKey.openapi({ example: "customerName" }),
    label: z.string().trim().min(1, "Enter a label").max(200),
    defaultValue: z.string().max(2000).nullable().optional(),
  })
  .openapi("MergeField");

const senderQuestionText = {
  key: ZKey.openapi({ example: "contractTerm" }),
  label: z.string().trim().min(1, "Enter the question").max(500),
};

/** As a request sets it: `required` may be omitted (true). */
export const ZSenderQuestion = z.object({ ...senderQuestionText, required: z.boolean().default(true) }).openapi("SenderQuestionInput");

/** As a template answers it: `required` always present (stored with its default applied), so listed as required. */
const ZSenderQuestionView = z.object({ ...senderQuestionText, required: z.boolean() }).openapi("SenderQuestion");

const uniqueKeys = <T extends { key: string }>(items: T[], ctx: z.RefinementCtx) => {
  const seen = new Set<string>();
  items.forEach((item, i) => {
    if (seen.has(item.key)) ctx.addIssue({ code: "custom", path: [i, "key"], message: "Keys must be unique" });
    seen.add(item.key);
  });
};

export const ZCreateTemplate = z
  .object({
    name: z.string().trim().min(1, "Enter a name").max(200, "At most 200 characters"),
    description: z.string().trim().max(2000, "At most 2,000 characters").nullable().optional(),
  })
  .openapi("CreateTemplate");

export const ZUpdateTemplate = z
  .object({
    name: z.string().trim().min(1, "Enter a name").max(200, "At most 200 characters").optional(),
    description: z.string().trim().max(2000, "At most 2,000 characters").nullable().optional(),
    status: ZTemplateStatus.optional(),
    mergeFields: z.array(ZMergeField).max(100).superRefine(uniqueKeys).optional().openapi({ description: "Replaces the list" }),
    questions: z.array(ZSenderQuestion).max(50).superRefine(uniqueKeys).optional().openapi({ description: "Replaces the list" }),
  })
  .openapi("UpdateTemplate");

export const ZListTemplatesQuery = ZPageQuery.extend({
  status: z
    .enum([...TEMPLATE_STATUSES, "all"])
    .optional()
    .openapi({ description: "DRAFT, ACTIVE, ARCHIVED, or all (the same as omitted)" }),
  search: z.string().trim().max(200).optional().openapi({ description: "Case-insensitive match on the name" }),
});

export const ZPageSize = z.object({ width: z.number(), height: z.number() });

export const ZTemplateDocument = z
  .object({
    id: z.string(),
    name: z.string(),
    contentType: z.enum(["application/pdf", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"]),
    fileSize: z.number().int(),
    uploadState: z.enum(DOCUMENT_UPLOAD_STATES).openapi({ description: "AWAITING_UPLOAD until the bytes were PUT to the upload URL and checked" }),
    sha256: z.string().nullable(),
    pageCount: z.number().int().nullable(),
    pageSizes: z.array(ZPageSize).nullable().openapi({ description: "Width and height of each page in points, as displayed" }),
    convertedFromDocx: z.boolean(),
    libraryDocumentId: z.string().nullable(),
    createdAt: ZTime,
    uploadedAt: ZTime.nullable(),
  })
  .openapi("TemplateDocument");

export const ZAddDocument = z
  .union([
    z.object({
      name: z.string().trim().min(1, "Enter a name").max(200),
      fileSize: z
        .number()
        .int({ abort: true })
        .min(1, { error: (iss) => (Number(iss.input) < 0 ? "A size in bytes cannot be negative" : "The file is empty") }),
      contentType: z
        .enum(["application/pdf", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"], valueError("PDF or DOCX only"))
        .default("application/pdf"),
    }),
    z.object({ libraryDocumentId: z.string().min(1), name: z.string().trim().min(1).max(200).optional() }),
  ])
  .openapi("AddDocument", { description: "Either the file to upload (`name`, `fileSize`, `contentType`) or a `libraryDocumentId` to copy" });

export const ZAddedDocument = z
  .object({
    document: ZTemplateDocument,
    uploadUrl: z.string().nullable().openapi({ description: "Absolute URL to PUT the bytes to, once, within two hours; null for a library document" }),
    uploadUrlExpiresAt: ZTime.nullable(),
  })
  .openapi("AddedDocument");

export const ZTemplateRole = z
  .object({
    roleIndex: z.number().int().openapi({ description: "0-based position in signing order" }),
    id: z.string(),
    name: z.string(),
    signingGroupId: z.string().nullable(),
    authentication: z
      .object({ method: ZSignerAuthMethod })
      .openapi({ description: "The signer authentication this role presets for its recipient (an ACCESS_CODE role's recipient must be given the code)" }),
  })
  .openapi("TemplateRole");

export const ZCreateRole = z
  .object({
    name: z.string().trim().min(1, "Enter a name").max(100),
    order: z.number().int().min(0).max(999).optional().openapi({ description: "The roleIndex to insert at; later roles move down one. Omitted: last" }),
    signingGroupId: z.string().min(1).nullable().optional(),
    authentication: z.object({ method: ZSignerAuthMethod }).optional().openapi({
      description:
        "The signer authentication the role presets (NONE when omitted on creation). No code here: a recipient of an ACCESS_CODE role is given its code when the package is made.",
    }),
  })
  .openapi("CreateTemplateRole");
export const ZUpdateRole = ZCreateRole.partial().openapi("UpdateTemplateRole");

export const ZFieldType = z.enum(FIELD_TYPES);
const ZGeometry = {
  // Bounded so that a hostile number never reaches an integer column as an out-of-range value (a 500).
  page: z.number().int().min(1).max(100_000).openapi({ description: "1-based page number" }),
  x: z.number().min(0).openapi({ description: "Points from the page's left edge" }),
  y: z.number().min(0).openapi({ description: "Points from the page's top edge" }),
  width: z.number().positive().max(5000),
  height: z.number().positive().max(5000),
};

export const ZTemplateField = z
  .object({
    id: z.string(),
    documentId: z.string(),
    roleIndex: z.number().int(),
    type: ZFieldType,
    ...ZGeometry,
    required: z.boolean(),
    label: z.string().nullable(),
    mergeFieldKey: z.string().nullable(),
  })
  .openapi("TemplateField");

export const ZCreateField = z
  .object({
    documentId: z.string().min(1),
    roleIndex: z.number().int().min(0).max(999),
    type: ZFieldType,
    ...ZGeometry,
    required: z.boolean().default(true),
    label: z.string().trim().max(200).nullable().optional(),
    mergeFieldKey: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .nullable()
      .optional()
      .openapi({ description: "Pre-fills a text field from the package's merge field value" }),
  })
  .openapi("CreateTemplateField");
// `required` has no default here: a PATCH without it keeps the field's value (partial() would apply the default).
export const ZUpdateField = ZCreateField.partial().extend({ required: z.boolean().optional() }).openapi("UpdateTemplateField");

export const ZLockHolder = z
  .object({
    user: z.object({ id: z.string(), name: z.string(), email: z.string() }),
    expiresAt: ZTime,
    mine: z.boolean().openapi({ description: "Held by the member asking (app only; false for an API key)" }),
  })
  .openapi("EditLock");

export const ZTemplateSummary = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    status: ZTemplateStatus,
    documentCount: z.number().int(),
    roleCount: z.number().int(),
    fieldCount: z.number().int(),
    createdAt: ZTime,
    updatedAt: ZTime,
  })
  .openapi("TemplateSummary");

export const ZTemplate = ZTemplateSummary.omit({ documentCount: true, roleCount: true, fieldCount: true })
  .extend({
    documents: z.array(ZTemplateDocument),
    roles: z.array(ZTemplateRole),
    fields: z.array(ZTemplateField),
    mergeFields: z.array(ZMergeField),
    questions: z.array(ZSenderQuestionView),
    lock: ZLockHolder.nullable().openapi({ description: "The app's edit lock, while a member holds it" }),
    activationBlockers: z.array(z.string()).openapi({ description: "Why the template cannot become ACTIVE yet (empty when it can)" }),
  })
  .openapi("Template");

export const ZTemplateList = pagedSchema("templates", ZTemplateSummary);
export const ZDeleted = z.object({ id: z.string(), deleted: z.literal(true) });
export const ZTemplateRoleList = z.object({ roles: z.array(ZTemplateRole) }).openapi("TemplateRoleList");
export const ZTemplateFieldList = z.object({ fields: z.array(ZTemplateField) }).openapi("TemplateFieldList");
export const ZUnlockQuery = z.object({
  force: z
    .enum(["true", "false"])
    .optional()
    .transform((v) => v === "true")
    .openapi({ description: "true: break another member's lock (the owner only)" }),
});
export const ZReleasedLock = z.object({ released: z.boolean().openapi({ description: "false when there was no live lock to release" }) });
export const ZDeletedRole = z.object({ roleIndex: z.number().int(), deleted: z.literal(true) });

export type TTemplateDocument = z.infer<typeof ZTemplateDocument>;
