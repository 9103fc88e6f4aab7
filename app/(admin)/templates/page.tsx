import type { Metadata } from "next";
import { PageHeader } from "@/components/shell/page-header";
import { TemplatesList } from "@/components/templates/templates-list";
import { requireSessionActor } from "@/server/auth/session";

export const metadata: Metadata = { title: "Templates" };

/** Every member may see the workspace's templates; only a role with CREATE template access may create them. */
export default async function TemplatesPage() {
  const actor = await requireSessionActor();
  return (
    <>
      <PageHeader title="Templates" description="Reusable documents with signer roles, fields and merge fields, from which packages are created." />
      <TemplatesList canCreate={actor.role.templateAccess === "CREATE"} />
    </>
  );
}
