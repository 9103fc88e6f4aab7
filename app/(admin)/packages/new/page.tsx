import type { Metadata } from "next";
import { NewPackageForm } from "@/components/packages/new-package-form";
import { PageHeader } from "@/components/shell/page-header";
import { requireSessionActor } from "@/server/auth/session";

export const metadata: Metadata = { title: "New package" };

/** Any member may create a draft; sending or scheduling needs canSendPackages (the API checks it too). */
export default async function NewPackagePage() {
  const actor = await requireSessionActor();
  return (
    <>
      <PageHeader
        title="New package from template"
        description="Choose an active template, name a recipient for each of its roles, then send, schedule or keep a draft."
      />
      <NewPackageForm canSend={actor.role.permissions.canSendPackages} />
    </>
  );
}
