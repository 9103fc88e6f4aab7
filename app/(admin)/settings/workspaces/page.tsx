import type { Metadata } from "next";
import { PageHeader } from "@/components/shell/page-header";
import { WorkspacesPanel } from "@/components/workspaces/workspaces-panel";
import { requireSessionActor } from "@/server/auth/session";

export const metadata: Metadata = { title: "Workspaces" };

export default async function WorkspacesPage() {
  const actor = await requireSessionActor();
  return (
    <>
      <PageHeader
        title="Workspaces"
        description="Divide your organisation into offices, regions or teams. One workspace is the default; the owner creates, renames and deletes them."
      />
      <WorkspacesPanel canManage={actor.isOwner} />
    </>
  );
}
