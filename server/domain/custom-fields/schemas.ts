/**
 * Every schema of custom field definitions: the keys a package's `metadata` accepts. Only active definitions
 * are listed through the API; a definition scoped to a template applies only to packages from that template.
 * The whole capability is the plan feature "custom fields" (402 without it).
 */
import { z } from "@/server/lib/zod";

export const CUSTOM_FIELD_KEY_PATTERN = /^[A-Za-z][A-Za-z0-9_.-]*$/;

const ZKey = z
  .string()
  .trim()
  // An empty key gets one message, not also the pattern's.
  .min(1, { error: "Enter a key", abort: true })
  .max(64, "At most 64 characters")
  .regex(CUSTOM_FIELD_KEY_PATTERN, "Use letters, digits, _ . and - only, starting with a letter");
const ZLabel = z.string().trim().min(1, "Enter a label").max(200, "At most 200 characters");
const ZTemplateScope = z.string().min(1).nullable().openapi({ description: "Only packages from this template use the field; null for every template" });

export const ZCustomFieldParams = z.object({
  customFieldId: z.string().min(1).openapi({ example: "cfd_0190f3c2a1b4c5d6e7f8091a2b3c4d5e6f708192a3b4" }),
});

export const ZListCustomFieldsQuery = z.object({
  templateId: z.string().min(1).optional().openapi({
    description: "Only definitions that apply to this template: those without a template scope and those scoped to it. A template of another workspace is 404.",
  }),
});
export type TListCustomFieldsQuery = z.output<typeof ZListCustomFieldsQuery>;

export const ZCustomField = z
  .object({
    id: z.string(),
    key: z.string().openapi({ description: "The key of the value in a package's `metadata`", example: "costCentre" }),
    label: z.string(),
    active: z.boolean(),
    templateId: z.string().nullable().openapi({ description: "Null: every template" }),
    createdAt: z.string().openapi({ format: "date-time" }),
    updatedAt: z.string().openapi({ format: "date-time" }),
  })
  .openapi("CustomField");
export type TCustomField = z.output<typeof ZCustomField>;

export const ZCustomFieldList = z.object({ customFields: z.array(ZCustomField).openapi({ description: "By key" }) }).openapi("CustomFieldList");

export const ZCreateCustomField = z
  .object({ key: ZKey, label: ZLabel, active: z.boolean().default(true), templateId: ZTemplateScope.default(null) })
  .openapi("CreateCustomField");
export type TCreateCustomField = z.output<typeof ZCreateCustomField>;

export const ZUpdateCustomField = z
  .object({ label: ZLabel.optional(), active: z.boolean().optional(), templateId: ZTemplateScope.optional() })
  .openapi("UpdateCustomField");
export type TUpdateCustomField = z.output<typeof ZUpdateCustomField>;

export const ZDeletedCustomField = z.object({ id: z.string(), deleted: z.literal(true) });

/** Domain inputs: the operation's params (and body) merged, as the route parsed them. */
export type TCustomFieldRef = z.output<typeof ZCustomFieldParams>;
export type TUpdateCustomFieldInput = TCustomFieldRef & TUpdateCustomField;
