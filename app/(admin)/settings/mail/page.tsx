import type { Metadata } from "next";
import { SendTestMail } from "@/components/mail/send-test-mail";
import { PageHeader } from "@/components/shell/page-header";
import { requireOwnerActor } from "@/server/auth/session";
import { configuredMailTransport } from "@/server/domain/mail/transport";

export const metadata: Metadata = { title: "Mail settings" };

export default async function MailSettingsPage() {
  const actor = await requireOwnerActor();
  return (
    <>
      <PageHeader title="Mail" description="How Foliosign sends invitations, reminders and notices." />
      <SendTestMail email={actor.user.email} transport={configuredMailTransport().kind} />
    </>
  );
}
