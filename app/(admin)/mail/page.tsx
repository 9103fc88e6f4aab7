import type { Metadata } from "next";
import { MailList } from "@/components/mail/mail-list";
import { PageHeader } from "@/components/shell/page-header";
import { requireActorWhere } from "@/server/auth/session";
import { can } from "@/server/domain/access/gates";

export const metadata: Metadata = { title: "Mail" };

/** Owners and members who send packages (canSendPackages); others get 403. */
export default async function MailPage() {
  const actor = await requireActorWhere((a) => can(a, "canSendPackages"));
  return (
    <>
      <PageHeader title="Mail" description="Every message Foliosign sends for this workspace, with its delivery status." />
      <MailList owner={actor.isOwner} />
    </>
  );
}
