import type { Metadata } from "next";
import { PageHeader } from "@/components/shell/page-header";
import { EndpointsDashboard } from "@/components/webhooks/endpoints-dashboard";
import { requireActorWhere } from "@/server/auth/session";
import { can } from "@/server/domain/access/gates";
import { env } from "@/server/env";

export const metadata: Metadata = { title: "Webhooks" };

export default async function WebhooksPage() {
  await requireActorWhere((actor) => can(actor, "canManageWebhooks"));
  return (
    <>
      <PageHeader title="Webhooks" description="Endpoints of the current workspace that receive signed notifications when packages and recipients change." />
      {/* The URL hint follows what registration will accept (assert-registrable-url.ts reads the same setting). */}
      <EndpointsDashboard allowPrivateTargets={env().WEBHOOK_ALLOW_PRIVATE_TARGETS} />
    </>
  );
}
