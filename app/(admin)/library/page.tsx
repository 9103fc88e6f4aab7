import type { Metadata } from "next";
import { LibraryPanel } from "@/components/library/library-panel";
import { PageHeader } from "@/components/shell/page-header";
import { requireSessionActor } from "@/server/auth/session";
import { env } from "@/server/env";

export const metadata: Metadata = { title: "Library" };

export default async function LibraryPage() {
  const actor = await requireSessionActor();
  return (
    <>
      <PageHeader
        title="Library"
        description="Reusable PDFs of this workspace. Add them to templates and packages without uploading them again; the API lists them too."
      />
      <LibraryPanel canManage={actor.role.templateAccess === "CREATE"} maxBytes={env().MAX_DOCUMENT_BYTES} />
    </>
  );
}
