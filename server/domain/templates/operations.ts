/**
 * The templates capability's operations (api-map 27–31, 36–43): templates, their roles and fields, public on
 * /api/v1 and as the app editor's internal twins on /api/app, plus the app-only edit lock. Documents (32–35)
 * are declared by the documents module. Reads need template access USE (every role has it), changes CREATE.
 */
import { appTwin, defineOperation } from "@/server/domain/operation";
import {
  ZCreateField,
  ZCreateRole,
  ZCreateTemplate,
  ZDeleted,
  ZDeletedRole,
  ZFieldParams,
  ZListTemplatesQuery,
  ZLockHolder,
  ZReleasedLock,
  ZRoleParams,
  ZTemplate,
  ZTemplateField,
  ZTemplateFieldList,
  ZTemplateList,
  ZTemplateParams,
  ZTemplateRole,
  ZTemplateRoleList,
  ZUnlockQuery,
  ZUpdateField,
  ZUpdateRole,
  ZUpdateTemplate,
} from "./schemas";
import { KEEP_ACTIVE_RULE } from "./find-activation-blockers";
import { ACTIVATION_REFUSED } from "./update-template";

const read = { tag: "Templates", templateAccess: "USE" } as const;
const write = { tag: "Templates", templateAccess: "CREATE" } as const;

const LOCKED = "Refused with 409 naming the member while another member holds the template's edit lock in the app.";
const STATUS_RULES =
  "Status moves: DRAFT (or ARCHIVED) → ACTIVE only with at least one uploaded PDF document, no document still uploading or awaiting DOCX conversion, at least one role, and a required signature field for every role (400 `" +
  ACTIVATION_REFUSED +
  ": <reasons>` otherwise; `activationBlockers` on the template lists them); ACTIVE ↔ ARCHIVED; DRAFT → ARCHIVED; ACTIVE or ARCHIVED → DRAFT. Packages already created from the template keep their own copy.";
const FIELD_RULES =
  "`documentId` must be an uploaded PDF of this template (422 at `documentId`), `page` one of its pages (422 at `page`), the box inside that page as displayed — points from the top-left corner, rotation applied (422 at `x`, `y`, `width` or `height` naming the page size) — `roleIndex` an existing role (422 at `roleIndex`) and `mergeFieldKey`, on a text field only, one of the template's merge fields (422 at `mergeFieldKey`).";

const publicOps = {
  listTemplates: {
    ...read,
    operationId: "listTemplates",
    method: "GET",
    path: "/api/v1/templates",
    summary: "List the workspace's templates, newest `updatedAt` first",
    description:
      "Paged. `status` filters (DRAFT, ACTIVE, ARCHIVED; `all` or omitted: every status); `search` matches the name, case-insensitive. Each template carries its document, role and field counts.",
    query: ZListTemplatesQuery,
    response: ZTemplateList,
  },
  createTemplate: {
    ...write,
    operationId: "createTemplate",
    method: "POST",
    path: "/api/v1/templates",
    summary: "Create a DRAFT template",
    description:
      "Needs template access CREATE. 402 `Your plan's limit of N templates would be exceeded` when the organisation (all its workspaces) already holds the plan's maximum.",
    successStatus: 201,
    body: ZCreateTemplate,
    response: ZTemplate,
  },
  getTemplate: {
    ...read,
    operationId: "getTemplate",
    method: "GET",
    path: "/api/v1/templates/{templateId}",
    summary: "A template with its documents, roles, fields, merge fields and sender questions",
    description: "`lock` names the member editing it in the app, if any; `activationBlockers` says why it cannot become ACTIVE yet.",
    params: ZTemplateParams,
    response: ZTemplate,
    errors: [404],
  },
  updateTemplate: {
    ...write,
    operationId: "updateTemplate",
    method: "PATCH",
    path: "/api/v1/templates/{templateId}",
    summary: "Change a template's name, description, status, merge fields or sender questions",
    description: `${STATUS_RULES} \`mergeFields\` and \`questions\` replace the lists; removing a merge field that a field still uses is 422 at \`mergeFields\`. ${LOCKED}`,
    params: ZTemplateParams,
    body: ZUpdateTemplate,
    response: ZTemplate,
    errors: [400, 404, 409],
  },
  deleteTemplate: {
    ...write,
    operationId: "deleteTemplate",
    method: "DELETE",
    path: "/api/v1/templates/{templateId}",
    summary: "Delete a template with its documents, roles and fields",
    description: `Packages already created from it keep their own copy. ${LOCKED}`,
    params: ZTemplateParams,
    response: ZDeleted,
    errors: [404, 409],
  },
  listTemplateFields: {
    ...read,
    operationId: "listTemplateFields",
    method: "GET",
    path: "/api/v1/templates/{templateId}/fields",
    summary: "The template's fields, each with its role's `roleIndex`",
    params: ZTemplateParams,
    response: ZTemplateFieldList,
    errors: [404],
  },
  createTemplateField: {
    ...write,
    operationId: "createTemplateField",
    method: "POST",
    path: "/api/v1/templates/{templateId}/fields",
    summary: "Place a field for a role on a page of one of the template's documents",
    description: `${FIELD_RULES} ${LOCKED} ${KEEP_ACTIVE_RULE}`,
    successStatus: 201,
    params: ZTemplateParams,
    body: ZCreateField,
    response: ZTemplateField,
    errors: [404, 409],
  },
  updateTemplateField: {
    ...write,
    operationId: "updateTemplateField",
    method: "PATCH",
    path: "/api/v1/templates/{templateId}/fields/{fieldId}",
    summary: "Change a field: move, resize, retype or reassign it",
    description: `The field as it would be afterwards must meet every rule: ${FIELD_RULES} ${LOCKED} ${KEEP_ACTIVE_RULE}`,
    params: ZFieldParams,
    body: ZUpdateField,
    response: ZTemplateField,
    errors: [404, 409],
  },
  deleteTemplateField: {
    ...write,
    operationId: "deleteTemplateField",
    method: "DELETE",
    path: "/api/v1/templates/{templateId}/fields/{fieldId}",
    summary: "Remove a field",
    description: `${LOCKED} ${KEEP_ACTIVE_RULE}`,
    params: ZFieldParams,
    response: ZDeleted,
    errors: [404, 409],
  },
  listTemplateRoles: {
    ...read,
    operationId: "listTemplateRoles",
    method: "GET",
    path: "/api/v1/templates/{templateId}/roles",
    summary: "The template's roles in signing order, addressed by `roleIndex`",
    params: ZTemplateParams,
    response: ZTemplateRoleList,
    errors: [404],
  },
  createTemplateRole: {
    ...write,
    operationId: "createTemplateRole",
    method: "POST",
    path: "/api/v1/templates/{templateId}/roles",
    summary: "Add a role, last or at `order`",
    description: `Inserting at \`order\` moves the roles from that position on down one (their \`roleIndex\` grows by one; their fields stay with them). \`order\` beyond the role count is 422. \`signingGroupId\` must be a signing group of the workspace with at least one member (422). ${LOCKED} ${KEEP_ACTIVE_RULE}`,
    successStatus: 201,
    params: ZTemplateParams,
    body: ZCreateRole,
    response: ZTemplateRole,
    errors: [404, 409],
  },
  updateTemplateRole: {
    ...write,
    operationId: "updateTemplateRole",
    method: "PATCH",
    path: "/api/v1/templates/{templateId}/roles/{roleIndex}",
    summary: "Rename a role, set its signing group, or move it to `order`",
    description: `Moving a role shifts the roles in between by one; fields stay with their role. \`signingGroupId\` must be a signing group of the workspace with at least one member (422; a group the role already has is kept); null clears it. ${LOCKED} ${KEEP_ACTIVE_RULE}`,
    params: ZRoleParams,
    body: ZUpdateRole,
    response: ZTemplateRole,
    errors: [404, 409],
  },
  deleteTemplateRole: {
    ...write,
    operationId: "deleteTemplateRole",
    method: "DELETE",
    path: "/api/v1/templates/{templateId}/roles/{roleIndex}",
    summary: "Delete a role and every field assigned to it",
    description: `The role's fields are deleted with it; the roles after it move up one (their \`roleIndex\` drops by one). ${LOCKED} ${KEEP_ACTIVE_RULE}`,
    params: ZRoleParams,
    response: ZDeletedRole,
    errors: [404, 409],
  },
} as const;

export const listTemplates = defineOperation(publicOps.listTemplates);
export const createTemplate = defineOperation(publicOps.createTemplate);
export const getTemplate = defineOperation(publicOps.getTemplate);
export const updateTemplate = defineOperation(publicOps.updateTemplate);
export const deleteTemplate = defineOperation(publicOps.deleteTemplate);
export const listTemplateFields = defineOperation(publicOps.listTemplateFields);
export const createTemplateField = defineOperation(publicOps.createTemplateField);
export const updateTemplateField = defineOperation(publicOps.updateTemplateField);
export const deleteTemplateField = defineOperation(publicOps.deleteTemplateField);
export const listTemplateRoles = defineOperation(publicOps.listTemplateRoles);
export const createTemplateRole = defineOperation(publicOps.createTemplateRole);
export const updateTemplateRole = defineOperation(publicOps.updateTemplateRole);
export const deleteTemplateRole = defineOperation(publicOps.deleteTemplateRole);

// ——— The app editor's twins (/api/app/templates/…): internal, same schemas, in the member's current workspace ———

const app = { tag: "App: templates", internal: true } as const;

export const appListTemplates = appTwin(publicOps.listTemplates, app.tag);
export const appCreateTemplate = appTwin(publicOps.createTemplate, app.tag);
export const appGetTemplate = appTwin(publicOps.getTemplate, app.tag);
export const appUpdateTemplate = appTwin(publicOps.updateTemplate, app.tag);
export const appDeleteTemplate = appTwin(publicOps.deleteTemplate, app.tag);
export const appListTemplateFields = appTwin(publicOps.listTemplateFields, app.tag);
export const appCreateTemplateField = appTwin(publicOps.createTemplateField, app.tag);
export const appUpdateTemplateField = appTwin(publicOps.updateTemplateField, app.tag);
export const appDeleteTemplateField = appTwin(publicOps.deleteTemplateField, app.tag);
export const appListTemplateRoles = appTwin(publicOps.listTemplateRoles, app.tag);
export const appCreateTemplateRole = appTwin(publicOps.createTemplateRole, app.tag);
export const appUpdateTemplateRole = appTwin(publicOps.updateTemplateRole, app.tag);
export const appDeleteTemplateRole = appTwin(publicOps.deleteTemplateRole, app.tag);

export const appLockTemplate = defineOperation({
  ...write,
  ...app,
  operationId: "appLockTemplate",
  method: "POST",
  path: "/api/app/templates/{templateId}/lock",
  summary: "Take or renew the editor's edit lock (a 2-minute lease)",
  description:
    "While held, other members and API keys cannot change the template's documents, roles or fields (409). 409 naming the holder when another member holds a live lock; an expired lock is taken over.",
  params: ZTemplateParams,
  response: ZLockHolder,
  errors: [404, 409],
});

export const appUnlockTemplate = defineOperation({
  ...write,
  ...app,
  operationId: "appUnlockTemplate",
  method: "DELETE",
  path: "/api/app/templates/{templateId}/lock",
  summary: "Release the edit lock; `force=true` lets the owner break another member's",
  description:
    "Another member's live lock without `force` is 409 naming them; `force` by anyone but the owner is 403. Breaking a lock is recorded in the audit log.",
  params: ZTemplateParams,
  query: ZUnlockQuery,
  response: ZReleasedLock,
  errors: [404, 409],
});
