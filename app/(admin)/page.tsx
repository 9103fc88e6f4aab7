import type { Metadata } from "next";
import Link from "next/link";
import { Card, CardBody } from "@/components/ui/card";
import { PageHeader } from "@/components/shell/page-header";
import { NoTsaNotice } from "@/components/packages/no-tsa-notice";
import { SealingProblems } from "@/components/packages/sealing-problems";
import { OverviewHealth } from "@/components/webhooks/overview-health";
import { requireSessionActor } from "@/server/auth/session";
import { getDb } from "@/server/db/client";
import { can } from "@/server/domain/access/gates";
import { getAwaitingSignature } from "@/server/domain/packages/get-awaiting-signature";
import { env } from "@/server/env";

export const metadata: Metadata = { title: "Overview" };

const SHORTCUTS = [
  { href: "/packages", title: "Packages", text: "Documents sent for signing and where each recipient stands." },
  { href: "/templates", title: "Templates", text: "Reusable documents, roles and fields to start packages from." },
  { href: "/settings/members", title: "Members", text: "Who can sign in to this organisation, and their roles." },
];
const WEBHOOKS = { href: "/webhooks", title: "Webhooks", text: "Signed notifications to your systems when packages change." };

export default async function OverviewPage() {
  const actor = await requireSessionActor();
  const webhooks = can(actor, "canManageWebhooks");
  const awaiting = await getAwaitingSignature(await getDb(), actor);
  const shortcuts = [
    ...SHORTCUTS,
    ...(webhooks ? [WEBHOOKS] : []),
    ...(actor.isOwner ? [{ href: "/settings/api-keys", title: "API keys", text: "Keys for your servers to call the Foliosign API." }] : []),
  ];
  return (
    <>
      <PageHeader
        title={`Welcome, ${actor.user.name.split(" ")[0]}`}
        description={
          webhooks
            ? "Your organisation at a glance: what awaits signature, how your webhook endpoints are doing, and where to go next."
            : "Your organisation at a glance: what awaits signature, and where to go next."
        }
      />
      <SealingProblems />
      {env().TSA_URLS.length === 0 ? <NoTsaNotice owner={actor.isOwner} /> : null}
      <Card className="mb-6">
        <CardBody>
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h2 className="text-sm font-semibold text-zinc-900">Awaiting signature</h2>
            <p className="text-sm text-zinc-600">
              {awaiting.inProgress} in progress{awaiting.onHold ? ` · ${awaiting.onHold} on hold` : ""}
            </p>
          </div>
          {awaiting.recent.length === 0 ? (
            <p className="mt-2 text-sm text-zinc-600">
              Nothing is out for signing.{" "}
              <Link href="/packages/new" className="font-medium text-brand-700 underline">
                Send a package from a template
              </Link>
              .
            </p>
          ) : (
            <ul className="mt-3 divide-y divide-zinc-100">
              {awaiting.recent.map((p) => (
                <li key={p.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
                  <Link href={`/packages/${p.id}`} className="min-w-0 truncate font-medium text-zinc-900 hover:text-brand-700 hover:underline">
                    {p.title}
                  </Link>
                  <span className="text-zinc-600 tabular-nums">
                    {p.signed} of {p.signers} signed
                  </span>
                </li>
              ))}
            </ul>
          )}
        </CardBody>
      </Card>
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
