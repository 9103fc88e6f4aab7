/**
 * Custom field definitions' operations: the public read (op 52) and the app's management routes (internal).
 * Every one of them needs the plan feature "custom fields" (402 `Your plan does not include custom fields`);
 * reading needs nothing else, managing needs template access CREATE (owners always have it).
 */
import { defineOperation } from "@/server/domain/operation";
import {
  ZCreateCustomField,
  ZCustomField,
  ZCustomFieldList,
  ZCustomFieldParams,
  ZDeletedCustomField,
  ZListCustomFieldsQuery,
  ZUpdateCustomField,
} from "./schemas";

export const listCustomFields = defineOperation({
  tag: "Custom fields",
  feature: "customFields",
  operationId: "listCustomFields",
  method: "GET",
  path: "/api/v1/custom-fields",
  summary: "The workspace's active custom field definitions, by key (not paged)",
  description:
    "Only active definitions. With `templateId`, only those that apply to packages from that template: the unscoped ones and those scoped to it (a template of another workspace is 404). Needs the custom-fields plan feature.",
  query: ZListCustomFieldsQuery,
  response: ZCustomFieldList,
  errors: [404],
});

// ——— The app's own routes (/api/app/custom-fields/…): internal, in the signed-in member's current workspace ———

const app = { tag: "App: custom fields", feature: "customFields", internal: true } as const;
const manage = { ...app, templateAccess: "CREATE" } as const;

export const appListCustomFields = defineOperation({
  ...app,
  operationId: "appListCustomFields",
  method: "GET",
  path: "/api/app/custom-fields",
  summary: "Every definition of the current workspace, active or not, by key",
  response: ZCustomFieldList,
});

export const appCreateCustomField = defineOperation({
  ...manage,
  operationId: "appCreateCustomField",
  method: "POST",
  path: "/api/app/custom-fields",
  summary: "Define a custom field (key unique in the workspace)",
  successStatus: 201,
  body: ZCreateCustomField,
  response: ZCustomField,
  errors: [404, 409],
});

export const appUpdateCustomField = defineOperation({
  ...manage,
  operationId: "appUpdateCustomField",
  method: "PATCH",
  path: "/api/app/custom-fields/{customFieldId}",
  summary: "Change a definition's label, active flag or template scope (the key is fixed)",
  params: ZCustomFieldParams,
  body: ZUpdateCustomField,
  response: ZCustomField,
  errors: [404],
});

export const appDeleteCustomField = defineOperation({
  ...manage,
  operationId: "appDeleteCustomField",
  method: "DELETE",
  path: "/api/app/custom-fields/{customFieldId}",
  summary: "Delete a definition (values already in packages stay)",
  params: ZCustomFieldParams,
  response: ZDeletedCustomField,
  errors: [404],
});
