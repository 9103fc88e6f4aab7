import type { Metadata } from "next";
import { PageHeader } from "@/components/shell/page-header";
import { SigningGroupsPanel } from "@/components/signing-groups/signing-groups-panel";
import { requireSessionActor } from "@/server/auth/session";

export const metadata: Metadata = { title: "Signing groups" };

export default async function SigningGroupsPage() {
  const actor = await requireSessionActor();
  return (
    <>
      <PageHeader
        title="Signing groups"
        description="Named lists of people of this workspace. Any one of them may sign for a template role that names the group."
      />
      <SigningGroupsPanel canManage={actor.role.templateAccess === "CREATE"} />
    </>
  );
}
