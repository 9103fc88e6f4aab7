import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { MailDetail } from "@/components/mail/mail-detail";
import { PageHeader } from "@/components/shell/page-header";
import { requireActorWhere } from "@/server/auth/session";
import { getDb } from "@/server/db/client";
import { can } from "@/server/domain/access/gates";
import { getMail } from "@/server/domain/mail/get-mail";
import { AppError } from "@/server/lib/errors";

export const metadata: Metadata = { title: "Message" };

/** 403 without canSendPackages; 404 for a message that is not in the current workspace (or not visible). */
export default async function MailMessagePage({ params }: { params: Promise<{ messageId: string }> }) {
  const actor = await requireActorWhere((a) => can(a, "canSendPackages"));
  const { messageId } = await params;
  const found = await getMail(await getDb(), actor, { messageId }).catch((err: unknown) => {
    if (err instanceof AppError && err.kind === "NOT_FOUND") return null;
    throw err;
  });
  if (!found) notFound();
  return (
    <>
      <PageHeader title="Message" />
      <MailDetail messageId={messageId} />
    </>
  );
}
