"use client";

import { errorMessage } from "@/components/lib/api-client";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { usePlan } from "./query";

const FEATURES = [
  { key: "publicApi", label: "Public API", text: "Your servers call /api/v1 with API keys." },
  { key: "webhooks", label: "Webhooks", text: "Signed notifications when packages and recipients change." },
  { key: "customFields", label: "Custom fields", text: "Metadata on packages, keyed by field." },
] as const;

export function PlanPanel() {
  const plan = usePlan();
  if (plan.isPending) return <p className="text-sm text-zinc-500">Loading plan…</p>;
  if (plan.isError) return <Alert tone="error">{errorMessage(plan.error)}</Alert>;
  const { features, packageAllowance, packagesUsed } = plan.data;
  return (
    <div className="space-y-6">
      <Card>
        <CardHeader title="Features" />
        <ul className="divide-y divide-zinc-100">
          {FEATURES.map((f) => (
            <li key={f.key} className="flex items-center justify-between gap-4 px-6 py-4">
              <div>
                <p className="text-sm font-medium text-zinc-900">{f.label}</p>
                <p className="text-sm text-zinc-500">{f.text}</p>
              </div>
              {features[f.key] ? <Badge tone="success">Included</Badge> : <Badge tone="neutral">Not included</Badge>}
            </li>
          ))}
        </ul>
      </Card>
      <Card>
        <CardHeader title="Package allowance" description="Each package sent uses one package of the allowance." />
        <CardBody>
          <dl className="grid gap-6 sm:grid-cols-3">
            <div>
              <dt className="text-sm text-zinc-500">Allowance</dt>
              <dd className="mt-1 text-2xl font-semibold text-zinc-900">{packageAllowance === null ? "Unlimited" : packageAllowance}</dd>
            </div>
            <div>
              <dt className="text-sm text-zinc-500">Sent</dt>
              <dd className="mt-1 text-2xl font-semibold text-zinc-900">{packagesUsed}</dd>
            </div>
            <div>
              <dt className="text-sm text-zinc-500">Remaining</dt>
              <dd className="mt-1 text-2xl font-semibold text-zinc-900">
                {packageAllowance === null ? "Unlimited" : Math.max(0, packageAllowance - packagesUsed)}
              </dd>
            </div>
          </dl>
        </CardBody>
      </Card>
      <Alert tone="info" title="Set by the operator">
        On a self-hosted instance the operator sets the plan from the server, for example <code className="font-mono text-xs">npm run admin -- set-plan …</code>
        . Owners and members can read it here.
      </Alert>
    </div>
  );
}
