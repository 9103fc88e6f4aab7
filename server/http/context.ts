import type { TTemplateAccess } from "@/server/db/schema";

export const PERMISSIONS = ["canSendPackages", "canViewAllPackages", "canManageWebhooks"] as const;
export type TPermission = (typeof PERMISSIONS)[number];

export const PLAN_FEATURES = { publicApi: "public API", webhooks: "webhooks", customFields: "custom fields" } as const;
export type TPlanFeature = keyof typeof PLAN_FEATURES;

/** Who acts, where, and with which rights: what every domain function called from the API receives. */
export type TApiContext = {
  requestId: string;
  clientAddress: string | null;
  organisation: {
    id: string;
    name: string;
    features: Record<TPlanFeature, boolean>;
    ipAllowlist: string[];
  };
  workspace: { id: string; name: string; slug: string; isDefault: boolean };
  role: {
    id: string;
    name: string;
    apiAccess: boolean;
    permissions: Record<TPermission, boolean>;
    templateAccess: TTemplateAccess;
  };
  apiKey: { id: string; name: string; prefix: string };
  /** The key's issuer: work done with the key is attributed to this user in audit events. */
  actor: { userId: string; email: string; name: string };
};
