/**
 * The organisation capability's operations: the public account endpoints a key reads (/api/v1), and the app's
 * own routes (internal) for first run, invites, the signed-in member, members, roles, workspaces, plan and
 * security. Whole-operation owner-only actions declare `ownerOnly`; the route wrapper checks it.
 */
import { defineOperation } from "@/server/domain/operation";
import { z } from "@/server/lib/zod";
import {
  ZAcceptedInvite,
  ZAcceptInviteBody,
  ZAccount,
  ZAddedMember,
  ZAddMember,
  ZChangedMemberRole,
  ZChangedPassword,
  ZChangePassword,
  ZPasswordLink,
  ZOwnershipTransferred,
  ZDeletedWorkspace,
  ZRenamedMe,
  ZRenameMe,
  ZTransferOwnershipBody,
  ZPasswordResetRequested,
  ZRequestPasswordReset,
  ZChangeMemberRoleBody,
  ZChooseWorkspace,
  ZChosenWorkspace,
  ZCreatedOwner,
  ZCreateOwner,
  ZCreateRole,
  ZDeletedRole,
  ZInviteParams,
  ZIpAllowlist,
  ZMe,
  ZMemberItem,
  ZMemberParams,
  ZPlan,
  ZRemovedMember,
  ZRoleItem,
  ZRoleParams,
  ZRoleRef,
  ZSetIpAllowlist,
  ZUpdateRoleBody,
  ZWorkspace,
  ZCreateWorkspace,
  ZSetWorkspaceTestMode,
  ZWorkspaceFields,
  ZWorkspaceTestModeResult,
  ZWorkspaceItem,
  ZWorkspaceParams,
} from "./schemas";

export const getAccount = defineOperation({
  operationId: "getAccount",
  method: "GET",
  path: "/api/v1/account",
  tag: "Account",
  summary: "Who the key acts as",
  description:
    "The organisation, workspace and role the key acts in, its permissions, and the user that work done with it is " +
    "attributed to (the key's issuer). A good first call: it proves the key works.",
  response: ZAccount,
});

export const listWorkspaces = defineOperation({
  operationId: "listWorkspaces",
  method: "GET",
  path: "/api/v1/workspaces",
  tag: "Account",
  summary: "List the key's workspaces",
  description: "A key belongs to one workspace and can act only there, so the list holds that workspace; `active` is its id.",
  response: z.object({ active: z.string(), workspaces: z.array(ZWorkspace) }),
});

// ——— The app's own routes (/api/app/…): internal ———

const app = { tag: "App: organisation", internal: true } as const;
const owner = { ...app, ownerOnly: true } as const;

export const appSetup = defineOperation({
  ...app,
  operationId: "appSetup",
  method: "POST",
  path: "/api/app/setup",
  summary: "First run: the owner, the organisation and its default workspace (409 once set up)",
  successStatus: 201,
  body: ZCreateOwner,
  response: ZCreatedOwner,
  errors: [409],
});

export const appAcceptInvite = defineOperation({
  ...app,
  operationId: "appAcceptInvite",
  method: "POST",
  path: "/api/app/invites/{token}/accept",
  summary: "Set the invited member's password (the token is the credential; it works once, within 7 days)",
  params: ZInviteParams,
  body: ZAcceptInviteBody,
  response: ZAcceptedInvite,
  errors: [404],
});

export const appGetMe = defineOperation({
  ...app,
  operationId: "appGetMe",
  method: "GET",
  path: "/api/app/me",
  summary: "The signed-in member as the app sees them",
  response: ZMe,
});

export const appChooseWorkspace = defineOperation({
  ...app,
  operationId: "appChooseWorkspace",
  method: "POST",
  path: "/api/app/current-workspace",
  summary: "The shell's switcher: remember a workspace of the member's organisation",
  body: ZChooseWorkspace,
  response: ZChosenWorkspace,
  errors: [404],
});

export const appListMembers = defineOperation({
  ...app,
  operationId: "appListMembers",
  method: "GET",
  path: "/api/app/members",
  summary: "The organisation's members, owner first",
  response: z.array(ZMemberItem),
});

export const appAddMember = defineOperation({
  ...owner,
  operationId: "appAddMember",
  method: "POST",
  path: "/api/app/members",
  summary: "Add a member with an initial password or a one-time invite link",
  successStatus: 201,
  body: ZAddMember,
  response: ZAddedMember,
  errors: [409],
});

export const appChangeMemberRole = defineOperation({
  ...owner,
  operationId: "appChangeMemberRole",
  method: "PATCH",
  path: "/api/app/members/{userId}",
  summary: "Give the member another role",
  params: ZMemberParams,
  body: ZChangeMemberRoleBody,
  response: ZChangedMemberRole,
  errors: [404],
});

export const appRemoveMember = defineOperation({
  ...owner,
  operationId: "appRemoveMember",
  method: "DELETE",
  path: "/api/app/members/{userId}",
  summary: "Remove the member; the keys they issued answer 401 from now on",
  params: ZMemberParams,
  response: ZRemovedMember,
  errors: [404],
});

export const appRenameMe = defineOperation({
  ...app,
  operationId: "appRenameMe",
  method: "PATCH",
  path: "/api/app/me",
  summary: "Change the signed-in member's name",
  body: ZRenameMe,
  response: ZRenamedMe,
});

export const appChangePassword = defineOperation({
  ...app,
  operationId: "appChangePassword",
  method: "POST",
  path: "/api/app/me/password",
  summary: "Change the signed-in member's password (the current one is asked for; every other session ends)",
  body: ZChangePassword,
  response: ZChangedPassword,
});

export const appRequestPasswordReset = defineOperation({
  ...app,
  operationId: "appRequestPasswordReset",
  method: "POST",
  path: "/api/app/password-reset",
  summary: "Forgot your password: mail a one-time reset link (1 hour) if the address is a member's; the same answer either way (409 without a mail server)",
  body: ZRequestPasswordReset,
  response: ZPasswordResetRequested,
  errors: [409],
});

export const appIssuePasswordLink = defineOperation({
  ...owner,
  operationId: "appIssuePasswordLink",
  method: "POST",
  path: "/api/app/members/{userId}/password-link",
  summary: "A one-time link that sets the member's password: a reset (24 hours), or a new invitation (7 days)",
  successStatus: 201,
  params: ZMemberParams,
  response: ZPasswordLink,
  errors: [404, 409],
});

export const appTransferOwnership = defineOperation({
  ...owner,
  operationId: "appTransferOwnership",
  method: "POST",
  path: "/api/app/members/{userId}/ownership",
  summary: "Hand the organisation to another member (the owner's password confirms it); the former owner stays an Admin",
  params: ZMemberParams,
  body: ZTransferOwnershipBody,
  response: ZOwnershipTransferred,
  errors: [404, 409],
});

export const appListRoles = defineOperation({
  ...app,
  operationId: "appListRoles",
  method: "GET",
  path: "/api/app/roles",
  summary: "Built-in and custom roles with their permissions and usage",
  response: z.array(ZRoleItem),
});

export const appCreateRole = defineOperation({
  ...owner,
  operationId: "appCreateRole",
  method: "POST",
  path: "/api/app/roles",
  summary: "Create a custom role (409 on a name taken in any case)",
  successStatus: 201,
  body: ZCreateRole,
  response: ZRoleRef,
  errors: [409],
});

export const appUpdateRole = defineOperation({
  ...owner,
  operationId: "appUpdateRole",
  method: "PATCH",
  path: "/api/app/roles/{roleId}",
  summary: "Change a custom role (built-in roles are read-only; 409 on a name taken in any case)",
  params: ZRoleParams,
  body: ZUpdateRoleBody,
  response: ZRoleRef,
  errors: [404, 409],
});

export const appDeleteRole = defineOperation({
  ...owner,
  operationId: "appDeleteRole",
  method: "DELETE",
  path: "/api/app/roles/{roleId}",
  summary: "Delete an unused custom role (409 while a member or any key uses it)",
  params: ZRoleParams,
  response: ZDeletedRole,
  errors: [404, 409],
});

export const appListWorkspaces = defineOperation({
  ...app,
  operationId: "appListWorkspaces",
  method: "GET",
  path: "/api/app/workspaces",
  summary: "The organisation's workspaces, default first",
  response: z.array(ZWorkspaceItem),
});

export const appCreateWorkspace = defineOperation({
  ...owner,
  operationId: "appCreateWorkspace",
  method: "POST",
  path: "/api/app/workspaces",
  summary: "Create a workspace, live or test (409 on a taken slug, or a name taken in any case)",
  successStatus: 201,
  body: ZCreateWorkspace,
  response: ZWorkspaceItem,
  errors: [409],
});

export const appRenameWorkspace = defineOperation({
  ...owner,
  operationId: "appRenameWorkspace",
  method: "PATCH",
  path: "/api/app/workspaces/{workspaceId}",
  summary: "New name and slug for a workspace (its id, and keys bound to it, stay; 409 as on create)",
  params: ZWorkspaceParams,
  body: ZWorkspaceFields,
  response: ZWorkspaceItem,
  errors: [404, 409],
});

export const appSetWorkspaceTestMode = defineOperation({
  ...owner,
  operationId: "appSetWorkspaceTestMode",
  method: "PUT",
  path: "/api/app/workspaces/{workspaceId}/test-mode",
  summary: "Make a workspace a test workspace or a live one (409 once it has sent a package; its keys are revoked)",
  params: ZWorkspaceParams,
  body: ZSetWorkspaceTestMode,
  response: ZWorkspaceTestModeResult,
  errors: [404, 409],
});

export const appDeleteWorkspace = defineOperation({
  ...owner,
  operationId: "appDeleteWorkspace",
  method: "DELETE",
  path: "/api/app/workspaces/{workspaceId}",
  summary: "Delete a workspace with everything in it (409 for the default one, and for a live one that has sent a package)",
  params: ZWorkspaceParams,
  response: ZDeletedWorkspace,
  errors: [404, 409],
});

export const appPreviewWorkspaceDeletion = defineOperation({
  ...owner,
  operationId: "appPreviewWorkspaceDeletion",
  method: "GET",
  path: "/api/app/workspaces/{workspaceId}/deletion",
  summary: "What deleting a workspace would take with it, counted (404 and 409 as the deletion would answer)",
  params: ZWorkspaceParams,
  response: ZDeletedWorkspace,
  errors: [404, 409],
});

export const appGetPlan = defineOperation({
  ...app,
  operationId: "appGetPlan",
  method: "GET",
  path: "/api/app/plan",
  summary: "Plan features and package allowance (read-only; the operator sets them)",
  response: ZPlan,
});

export const appGetIpAllowlist = defineOperation({
  ...owner,
  operationId: "appGetIpAllowlist",
  method: "GET",
  path: "/api/app/ip-allowlist",
  summary: "The API's IP allowlist; empty means no restriction",
  response: ZIpAllowlist,
});

export const appSetIpAllowlist = defineOperation({
  ...owner,
  operationId: "appSetIpAllowlist",
  method: "PUT",
  path: "/api/app/ip-allowlist",
  summary: "Replace the API's IP allowlist; an empty list lifts the restriction",
  body: ZSetIpAllowlist,
  response: ZIpAllowlist,
});
