import type { Metadata } from "next";
import { EmbedOriginsEditor } from "@/components/embedding/embed-origins-editor";
import { PageHeader } from "@/components/shell/page-header";
import { requireActorWhere } from "@/server/auth/session";
import { can } from "@/server/domain/access/gates";

export const metadata: Metadata = { title: "Embedded signing" };

export default async function EmbeddingPage() {
  await requireActorWhere((actor) => can(actor, "canManageWebhooks"));
  return (
    <>
      <PageHeader
        title="Embedded signing"
        description="Let recipients sign inside your own application: list the sites allowed to frame signing pages of this workspace."
      />
      <EmbedOriginsEditor />
    </>
  );
}
