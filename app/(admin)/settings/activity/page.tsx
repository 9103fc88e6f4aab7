import type { Metadata } from "next";
import { ActivityList } from "@/components/activity/activity-list";
import { PageHeader } from "@/components/shell/page-header";
import { requireOwnerActor } from "@/server/auth/session";

export const metadata: Metadata = { title: "Activity" };

/** The organisation's administrative changes, from the audit trail: the owner's alone (others get 403). */
export default async function ActivityPage() {
  await requireOwnerActor();
  return (
    <>
      <PageHeader
        title="Activity"
        description="Who changed members, roles, API keys, workspaces, webhooks and settings, who signed in or failed to, and when."
      />
      <ActivityList />
    </>
  );
}
