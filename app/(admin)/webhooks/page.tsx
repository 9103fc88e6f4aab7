import type { Metadata } from "next";
import { forbidden } from "next/navigation";
import { PageHeader } from "@/components/shell/page-header";
import { EndpointsDashboard } from "@/components/webhooks/endpoints-dashboard";
import { requireSessionActor } from "@/server/auth/session";
import { getDb } from "@/server/db/client";
import { canManageWebhooks } from "@/server/domain/webhooks-app/can-manage-webhooks";

export const metadata: Metadata = { title: "Webhooks" };

export default async function WebhooksPage() {
  const actor = await requireSessionActor();
  if (!(await canManageWebhooks(await getDb(), actor))) forbidden();
  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Endpoints of the current workspace that receive signed notifications when packages and recipients change."
      />
      <EndpointsDashboard />
    </>
  );
}
