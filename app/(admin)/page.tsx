import type { Metadata } from "next";
import Link from "next/link";
import { Card, CardBody } from "@/components/ui/card";
import { PageHeader } from "@/components/shell/page-header";
import { OverviewHealth } from "@/components/webhooks/overview-health";
import { requireSessionActor } from "@/server/auth/session";
import { getDb } from "@/server/db/client";
import { canManageWebhooks } from "@/server/domain/webhooks-app/can-manage-webhooks";

export const metadata: Metadata = { title: "Overview" };

const SHORTCUTS = [
  { href: "/packages", title: "Packages", text: "Documents sent for signing and where each recipient stands." },
  { href: "/templates", title: "Templates", text: "Reusable documents, roles and fields to start packages from." },
  { href: "/settings/members", title: "Members", text: "Who can sign in to this organisation, and their roles." },
];
const WEBHOOKS = { href: "/webhooks", title: "Webhooks", text: "Signed notifications to your systems when packages change." };

export default async function OverviewPage() {
  const actor = await requireSessionActor();
  const webhooks = await canManageWebhooks(await getDb(), actor);
  const shortcuts = [
    ...SHORTCUTS,
    ...(webhooks ? [WEBHOOKS] : []),
    ...(actor.isOwner ? [{ href: "/settings/api-keys", title: "API keys", text: "Keys for your servers to call the Foliosign API." }] : []),
  ];
  return (
    <>
      <PageHeader
        title={`Welcome, ${actor.name.split(" ")[0]}`}
        description="The overview will summarise packages awaiting signature and recent activity. Webhook health is below."
      />
      {webhooks ? <OverviewHealth /> : null}
      <div className="grid gap-4 sm:grid-cols-2">
        {shortcuts.map((s) => (
          <Link key={s.href} href={s.href} className="group rounded-xl focus-visible:outline-2 focus-visible:outline-brand-600">
            <Card className="h-full transition-shadow group-hover:shadow-md">
              <CardBody>
                <h2 className="text-sm font-semibold text-zinc-900 group-hover:text-brand-700">{s.title}</h2>
                <p className="mt-1 text-sm text-zinc-600">{s.text}</p>
              </CardBody>
            </Card>
          </Link>
        ))}
      </div>
    </>
  );
}
