import type { Metadata } from "next";
import { ChangePasswordForm } from "@/components/account/change-password-form";
import { FailedSignInsCard } from "@/components/account/failed-sign-ins-card";
import { ProfileNameForm } from "@/components/account/profile-name-form";
import { SessionsCard } from "@/components/account/sessions-card";
import { PageHeader } from "@/components/shell/page-header";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { requireSessionActor } from "@/server/auth/session";

export const metadata: Metadata = { title: "Your account" };

export default async function AccountPage() {
  const actor = await requireSessionActor();
  const rows: [string, string][] = [
    ["Email", actor.user.email],
    ["Organisation", actor.organisation.name],
    ["Role", actor.isOwner ? `${actor.role.name} · Owner` : actor.role.name],
  ];
  return (
    <>
      <PageHeader title="Your account" description="Who you are signed in as, where, and your password." />
      <div className="space-y-6">
        <Card>
          <CardHeader title="Profile" description="Your name is how others see your work: in packages, API keys and audit trails." />
          <CardBody className="space-y-6">
            <ProfileNameForm name={actor.user.name} />
            <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-[10rem_1fr]">
              {rows.map(([term, value]) => (
                <div key={term} className="contents">
                  <dt className="text-zinc-500">{term}</dt>
                  <dd className="font-medium wrap-anywhere text-zinc-900">{value}</dd>
                </div>
              ))}
            </dl>
          </CardBody>
        </Card>
        <SessionsCard />
        <FailedSignInsCard />
        <ChangePasswordForm email={actor.user.email} />
      </div>
    </>
  );
}
