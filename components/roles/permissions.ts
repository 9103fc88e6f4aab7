import type { TRole } from "./query";

export type TPermissionFlag = "apiAccess" | "canSendPackages" | "canViewAllPackages" | "canManageWebhooks";

/** The spec's permissions, in the words the app shows. */
export const PERMISSION_LABELS: { key: TPermissionFlag; label: string; short: string; description: string }[] = [
  { key: "apiAccess", label: "API access", short: "API", description: "API keys with this role can call the Foliosign API." },
  {
    key: "canSendPackages",
    label: "Send packages",
    short: "Send",
    description:
      "Send packages to their recipients, and void, hold, resume, remind, correct, transfer or delete them once scheduled or sent (canSendPackages).",
  },
  {
    key: "canViewAllPackages",
    label: "View all packages",
    short: "View all",
    description: "See every package of the workspace, not only their own and those shared with them (canViewAllPackages).",
  },
  { key: "canManageWebhooks", label: "Manage webhooks", short: "Webhooks", description: "Register, change and delete webhook endpoints (canManageWebhooks)." },
];

export const TEMPLATE_ACCESS_LABELS: Record<TRole["templateAccess"], string> = {
  USE: "Use",
  CREATE: "Create and edit",
};
