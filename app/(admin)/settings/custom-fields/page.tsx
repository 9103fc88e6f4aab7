import type { Metadata } from "next";
import { CustomFieldsPanel } from "@/components/custom-fields/custom-fields-panel";
import { PageHeader } from "@/components/shell/page-header";
import { requireSessionActor } from "@/server/auth/session";
import { getDb } from "@/server/db/client";
import { listTemplateChoices } from "@/server/domain/custom-fields/list-template-choices";

export const metadata: Metadata = { title: "Custom fields" };

export default async function CustomFieldsPage() {
  const actor = await requireSessionActor();
  const templates = await listTemplateChoices(await getDb(), actor);
  return (
    <>
      <PageHeader
        title="Custom fields"
        description="Definitions of this workspace. Only active ones are listed by the API and accepted in a package's metadata."
      />
      <CustomFieldsPanel canManage={actor.role.templateAccess === "CREATE"} templates={templates} />
    </>
  );
}
