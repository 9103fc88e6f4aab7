import { defineOperation } from "../operation";
import { z } from "../zod";

export const ZWorkspace = z
  .object({ id: z.string(), name: z.string(), slug: z.string(), isDefault: z.boolean() })
  .openapi("Workspace");

export const ZAccount = z
  .object({
    organisation: z.object({ id: z.string(), name: z.string() }),
    workspace: z.object({ id: z.string(), name: z.string(), slug: z.string() }),
    role: z.object({
      id: z.string(),
      name: z.string(),
      permissions: z.object({
        apiAccess: z.boolean(),
        canSendPackages: z.boolean(),
        canViewAllPackages: z.boolean(),
        canManageWebhooks: z.boolean(),
        templateAccess: z.enum(["USE", "CREATE"]),
      }),
    }),
    issuedBy: z.object({ id: z.string(), email: z.string(), name: z.string() }),
    apiKey: z.object({ id: z.string(), name: z.string(), prefix: z.string() }),
  })
  .openapi("Account");

export const getAccount = defineOperation({
  operationId: "getAccount",
  method: "GET",
  path: "/api/v1/account",
  tag: "Account",
  summary: "The organisation, workspace and role the key acts in, and the user work is attributed to",
  response: ZAccount,
});

export const listWorkspaces = defineOperation({
  operationId: "listWorkspaces",
  method: "GET",
  path: "/api/v1/workspaces",
  tag: "Account",
  summary: "The key's workspace (the only one it can act in)",
  response: z.object({ active: z.string(), workspaces: z.array(ZWorkspace) }),
});
