import type { Metadata } from "next";
import { forbidden, notFound } from "next/navigation";
import { EndpointPage } from "@/components/webhooks/endpoint-page";
import { requireSessionActor } from "@/server/auth/session";
import { workspaceCookie } from "@/server/auth/workspace-cookie";
import { getDb } from "@/server/db/client";
import { canManageWebhooks } from "@/server/domain/webhooks-app/can-manage-webhooks";
import { resolveWebhookScope } from "@/server/domain/webhooks-app/resolve-webhook-scope";
import { findEndpoint } from "@/server/domain/webhooks/find-endpoint";
import { AppError } from "@/server/http/errors";

export const metadata: Metadata = { title: "Webhook endpoint" };

/** 403 without the permission; 404 for an endpoint that is not in the current workspace of the member's organisation. */
export default async function WebhookEndpointPage({ params }: { params: Promise<{ endpointId: string }> }) {
  const actor = await requireSessionActor();
  const db = await getDb();
  if (!(await canManageWebhooks(db, actor))) forbidden();
  const { endpointId } = await params;
  const scope = await resolveWebhookScope(db, actor, { workspaceId: await workspaceCookie() });
  // Only "not found" is a 404; any other failure is a real error and must surface as one.
  const found = await findEndpoint(db, scope, endpointId).catch((err: unknown) => {
    if (err instanceof AppError && err.kind === "NOT_FOUND") return null;
    throw err;
  });
  if (!found) notFound();
  return <EndpointPage endpointId={endpointId} />;
}
