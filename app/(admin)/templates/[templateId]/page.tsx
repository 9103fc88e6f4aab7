import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { TemplateEditor } from "@/components/templates/template-editor";
import { requireSessionActor } from "@/server/auth/session";
import { getDb } from "@/server/db/client";
import { findTemplate } from "@/server/domain/templates/find-template";
import { AppError } from "@/server/lib/errors";

export const metadata: Metadata = { title: "Template" };

/** 404 for a template that is not in the current workspace; read only for a role with USE template access. */
export default async function TemplateEditorPage({ params }: { params: Promise<{ templateId: string }> }) {
  const actor = await requireSessionActor();
  const db = await getDb();
  const { templateId } = await params;
  // Only "not found" is a 404; any other failure is a real error and must surface as one.
  const found = await findTemplate(db, actor, templateId).catch((err: unknown) => {
    if (err instanceof AppError && err.kind === "NOT_FOUND") return null;
    throw err;
  });
  if (!found) notFound();
  return <TemplateEditor templateId={templateId} canEdit={actor.role.templateAccess === "CREATE"} isOwner={actor.isOwner} />;
}
