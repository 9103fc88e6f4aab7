import type { Metadata } from "next";
import { RolesPanel } from "@/components/roles/roles-panel";
import { PageHeader } from "@/components/shell/page-header";
import { requireSessionActor } from "@/server/auth/session";

export const metadata: Metadata = { title: "Roles" };

export default async function RolesPage() {
  const actor = await requireSessionActor();
  return (
    <>
      <PageHeader
        title="Roles"
        description="A role is a set of permissions. Members act with their role; each API key acts with the role chosen when it was created."
      />
      <RolesPanel canManage={actor.isOwner} />
    </>
  );
}
