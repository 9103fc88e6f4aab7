import { Card } from "@/components/ui/card";
import { PageHeader } from "@/components/shell/page-header";

/** What a member without canManageWebhooks sees on the webhook pages (the app routes answer 403 as well). */
export function WebhooksForbidden() {
  return (
    <>
      <PageHeader title="Webhooks" />
      <Card>
        <div className="px-6 py-12 text-center" role="alert">
          <p className="text-sm font-semibold tracking-wide text-red-700">403 · Forbidden</p>
          <p className="mt-2 text-base font-medium text-zinc-900">Your role does not allow managing webhooks.</p>
          <p className="mt-1 text-sm text-zinc-500">Ask the owner of your organisation for a role with “Manage webhooks” if you need access.</p>
        </div>
      </Card>
    </>
  );
}
