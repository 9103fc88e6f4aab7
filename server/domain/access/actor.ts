/**
 * Who acts, where, and with which rights — the one type every domain function receives, whichever door the
 * request came through: an API key (`/api/v1`) or a signed-in session (the app). Both doors build it from the
 * database on every request (load-key-actor.ts, load-session-actor.ts), so a role or plan change applies at
 * once. Rules about what an actor may do are the helpers of ./gates.ts and ../packages/visible-packages.ts, never the door.
 */
import type { TTemplateAccess } from "@/server/db/schema";

export const PERMISSIONS = ["canSendPackages", "canViewAllPackages", "canManageWebhooks"] as const;
export type TPermission = (typeof PERMISSIONS)[number];

export const PLAN_FEATURES = { publicApi: "public API", webhooks: "webhooks", customFields: "custom fields" } as const;
export type TPlanFeature = keyof typeof PLAN_FEATURES;

export type TActor = {
  organisation: { id: string; name: string; features: Record<TPlanFeature, boolean>; ipAllowlist: string[] };
  /**
   * The workspace acted in: the key's own, or the app's current workspace (the switcher's choice, checked).
   * `isTest`: a test workspace (docs/decisions/test-mode.md).
   */
  workspace: { id: string; name: string; slug: string; isDefault: boolean; isTest: boolean };
  /** The member acting, or the key's issuer: work done with a key is attributed to this user in audit events. */
  user: { id: string; email: string; name: string };
  /**
   * Owner rights: a signed-in owner. A key never carries them, even one issued by the owner — a key acts with
   * exactly its role.
   */
  isOwner: boolean;
  /** The effective role. For an owner in the app every permission is granted and template access is CREATE. */
  role: {
    id: string;
    name: string;
    apiAccess: boolean;
    permissions: Record<TPermission, boolean>;
    templateAccess: TTemplateAccess;
  };
  /** The API key used, or null for a signed-in session. */
  apiKey: { id: string; name: string; prefix: string } | null;
  requestId: string;
  clientAddress: string | null;
  /** The app session acting (member_sessions.id), when a signed-in member acts through the app; never with a key. */
  sessionId?: string;
};

/** An actor admitted through the API door: always with the key used. */
export type TKeyedActor = TActor & { apiKey: NonNullable<TActor["apiKey"]> };
