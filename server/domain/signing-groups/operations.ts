/**
 * Signing groups' operations: the public read (op 51, any key of the workspace) and the app's management
 * routes (internal). Groups are named by template roles, so managing them needs template access CREATE
 * (owners always have it); reading needs nothing beyond the door.
 */
import { defineOperation } from "@/server/domain/operation";
import {
  ZAddSigningGroupMember,
  ZCreateSigningGroup,
  ZDeletedSigningGroup,
  ZSigningGroup,
  ZSigningGroupList,
  ZSigningGroupMemberParams,
  ZSigningGroupParams,
  ZUpdateSigningGroup,
} from "./schemas";

export const listSigningGroups = defineOperation({
  tag: "Signing groups",
  operationId: "listSigningGroups",
  method: "GET",
  path: "/api/v1/signing-groups",
  summary: "Every signing group of the workspace, by name, with members (not paged)",
  response: ZSigningGroupList,
});

// ——— The app's own routes (/api/app/signing-groups/…): internal, in the signed-in member's current workspace ———

const app = { tag: "App: signing groups", internal: true } as const;
const manage = { ...app, templateAccess: "CREATE" } as const;

export const appListSigningGroups = defineOperation({
  ...app,
  operationId: "appListSigningGroups",
  method: "GET",
  path: "/api/app/signing-groups",
  summary: "Every group of the current workspace, by name, with members",
  response: ZSigningGroupList,
});

export const appCreateSigningGroup = defineOperation({
  ...manage,
  operationId: "appCreateSigningGroup",
  method: "POST",
  path: "/api/app/signing-groups",
  summary: "Create a group (name unique in the workspace, ignoring case)",
  successStatus: 201,
  body: ZCreateSigningGroup,
  response: ZSigningGroup,
  errors: [409],
});

export const appUpdateSigningGroup = defineOperation({
  ...manage,
  operationId: "appUpdateSigningGroup",
  method: "PATCH",
  path: "/api/app/signing-groups/{groupId}",
  summary: "Rename a group",
  params: ZSigningGroupParams,
  body: ZUpdateSigningGroup,
  response: ZSigningGroup,
  errors: [404, 409],
});

export const appDeleteSigningGroup = defineOperation({
  ...manage,
  operationId: "appDeleteSigningGroup",
  method: "DELETE",
  path: "/api/app/signing-groups/{groupId}",
  summary: "Delete a group (template roles naming it lose the link)",
  params: ZSigningGroupParams,
  response: ZDeletedSigningGroup,
  errors: [404],
});

export const appAddSigningGroupMember = defineOperation({
  ...manage,
  operationId: "appAddSigningGroupMember",
  method: "POST",
  path: "/api/app/signing-groups/{groupId}/members",
  summary: "Add a person to a group; answers the whole group",
  successStatus: 201,
  params: ZSigningGroupParams,
  body: ZAddSigningGroupMember,
  response: ZSigningGroup,
  errors: [404, 409],
});

export const appRemoveSigningGroupMember = defineOperation({
  ...manage,
  operationId: "appRemoveSigningGroupMember",
  method: "DELETE",
  path: "/api/app/signing-groups/{groupId}/members/{memberId}",
  summary: "Remove a person from a group; answers the whole group (409 for the last member while a template role uses the group)",
  params: ZSigningGroupMemberParams,
  response: ZSigningGroup,
  errors: [404, 409],
});
