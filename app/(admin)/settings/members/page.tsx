import type { Metadata } from "next";
import { MembersPanel } from "@/components/members/members-panel";
import { PageHeader } from "@/components/shell/page-header";
import { requireSessionActor } from "@/server/auth/session";

export const metadata: Metadata = { title: "Members" };

export default async function MembersPage() {
  const actor = await requireSessionActor();
  return (
    <>
      <PageHeader
        title="Members"
        description="The owner adds members with an initial password or a one-time invite link, assigns their role, makes password reset links, signs members out of a session or everywhere, removes members, and can hand the organisation to one of them."
      />
      <MembersPanel canManage={actor.isOwner} />
    </>
  );
}
