import { ZPageQuery, pagedSchema } from "@/server/lib/pagination";
import { z } from "@/server/lib/zod";

/**
 * The areas an owner can narrow the organisation's activity to (each a set of audit subjects, list-activity.ts;
 * `sign_ins` the members' sign-ins and sessions, which `members` leaves out).
 */
export const ACTIVITY_AREAS = ["members", "sign_ins", "keys", "workspaces", "webhooks", "organisation", "content"] as const;
export type TActivityArea = (typeof ACTIVITY_AREAS)[number];

export const ZActivityQuery = ZPageQuery.extend({
  area: z.enum(ACTIVITY_AREAS, { error: `Expected one of: ${ACTIVITY_AREAS.join(", ")}` }).optional(),
});
export type TActivityQuery = z.output<typeof ZActivityQuery>;

export const ZActivityActor = z
  .object({
    kind: z.enum(["member", "operator", "service", "nobody"]).openapi({
      description: "member: a member in the app or through a key; operator: `npm run admin`; service: scheduled work",
    }),
    name: z.string().nullable(),
    email: z.string().nullable(),
    apiKeyName: z.string().nullable().openapi({ description: "The key the member acted through, if any" }),
  })
  .openapi("ActivityActor");

export const ZActivityItem = z
  .object({
    id: z.string(),
    createdAt: z.string(),
    action: z.string().openapi({ example: "api_key.revoked" }),
    area: z.enum(ACTIVITY_AREAS),
    summary: z.string().openapi({ example: "Revoked the API key “CI”" }),
    actor: ZActivityActor,
    workspaceName: z.string().nullable().openapi({ description: "The workspace the change happened in; null for the organisation's own settings" }),
    clientAddress: z.string().nullable(),
  })
  .openapi("ActivityItem");
export type TActivityItem = z.output<typeof ZActivityItem>;

export const ZActivityList = pagedSchema("events", ZActivityItem).openapi("ActivityList");
export type TActivityList = z.output<typeof ZActivityList>;
