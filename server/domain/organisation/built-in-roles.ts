import type { TTemplateAccess } from "@/server/db/schema";

export type TBuiltInRole = {
  builtIn: "admin" | "sender" | "viewer";
  name: string;
  apiAccess: boolean;
  canSendPackages: boolean;
  canViewAllPackages: boolean;
  canManageWebhooks: boolean;
  templateAccess: TTemplateAccess;
};

/** The spec's built-in profiles: Admin has API access and every permission; Sender and Viewer have no API access. */
export const BUILT_IN_ROLES: readonly TBuiltInRole[] = [
  { builtIn: "admin", name: "Admin", apiAccess: true, canSendPackages: true, canViewAllPackages: true, canManageWebhooks: true, templateAccess: "CREATE" },
  { builtIn: "sender", name: "Sender", apiAccess: false, canSendPackages: true, canViewAllPackages: false, canManageWebhooks: false, templateAccess: "USE" },
  { builtIn: "viewer", name: "Viewer", apiAccess: false, canSendPackages: false, canViewAllPackages: false, canManageWebhooks: false, templateAccess: "USE" },
];
