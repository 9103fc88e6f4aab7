"use client";

import { useState } from "react";
import { formatDateTime } from "@/components/lib/format";
import { errorMessage } from "@/components/lib/api-client";
import { Alert } from "@/components/ui/alert";
import { Card, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { ListFilterSelect, ListPager } from "@/components/ui/filtered-list";
import { TBody, TD, TH, THead, TR, Table } from "@/components/ui/table";
import type { TActivityItem } from "@/server/domain/activity/schemas";
import { useActivity, type TActivityArea } from "./query";

const AREAS: [TActivityArea, string][] = [
  ["members", "Members and roles"],
  ["sign_ins", "Sign-ins and sessions"],
  ["keys", "API keys"],
  ["workspaces", "Workspaces"],
  ["webhooks", "Webhooks"],
  ["organisation", "Organisation settings"],
  ["content", "Signing groups, custom fields and library"],
];

/** Who did it, as a line: the member (and the key they acted through), the operator's command, or the service. */
function actorText(actor: TActivityItem["actor"]): string {
  switch (actor.kind) {
    case "member": {
      const who = actor.name ?? actor.email ?? "A former member";
      return actor.apiKeyName ? `${who}, through the API key “${actor.apiKeyName}”` : who;
    }
    case "operator":
      return "The operator (npm run admin)";
    case "service":
      return "Foliosign";
    case "nobody":
      return "—";
  }
}

/** Settings → Activity: the organisation's administrative changes, newest first, 25 a page, narrowed by area. */
export function ActivityList() {
  const [page, setPage] = useState(1);
  const [area, setArea] = useState<TActivityArea | undefined>(undefined);
  const list = useActivity(page, area);
  const data = list.data;
  return (
    <Card>
      <CardHeader title="Changes" description="Newest first. Packages and templates keep their own history, on their pages." />
      <ListFilterSelect
        label="Show"
        value={area}
        options={AREAS}
        allLabel="Everything"
        className="w-72"
        onChange={(v) => {
          setPage(1);
          setArea(v);
        }}
      />
      {list.isError ? (
        <div className="p-6">
          <Alert tone="error">{errorMessage(list.error)}</Alert>
        </div>
      ) : list.isPending ? (
        <p className="p-6 text-sm text-zinc-500">Loading activity…</p>
      ) : data && data.events.length === 0 ? (
        <EmptyState
          title={area ? "Nothing here yet" : "No changes yet"}
          description={
            area
              ? "No change of this kind has been made. Choose “Everything” to see all changes."
              : "Changes to members, keys, workspaces and settings appear here."
          }
        />
      ) : (
        <div className="overflow-x-auto">
          <Table aria-label="Changes">
            <THead>
              <TR>
                <TH>Change</TH>
                <TH className="hidden md:table-cell">By</TH>
                <TH className="hidden lg:table-cell">Workspace</TH>
                <TH className="hidden xl:table-cell">From</TH>
                <TH className="hidden sm:table-cell">Time</TH>
              </TR>
            </THead>
            <TBody>
              {data!.events.map((e) => (
                <TR key={e.id} data-testid="activity-row">
                  {/* On a phone this cell carries the change, who made it and when. */}
                  <TD className="max-w-[20rem] whitespace-normal break-words sm:max-w-[28rem] xl:max-w-[34rem]">
                    <div className="font-medium text-zinc-900">{e.summary}</div>
                    <div className="text-xs text-zinc-600 md:hidden">{actorText(e.actor)}</div>
                    <div className="text-xs text-zinc-500 sm:hidden">{formatDateTime(e.createdAt)}</div>
                  </TD>
                  <TD className="hidden max-w-[16rem] md:table-cell">
                    <div className="truncate" title={e.actor.email ?? undefined}>
                      {actorText(e.actor)}
                    </div>
                  </TD>
                  <TD className="hidden max-w-[12rem] truncate text-zinc-600 lg:table-cell">{e.workspaceName ?? "—"}</TD>
                  <TD className="hidden whitespace-nowrap font-mono text-xs text-zinc-600 xl:table-cell">{e.clientAddress ?? "—"}</TD>
                  <TD className="hidden whitespace-nowrap text-zinc-600 sm:table-cell">{formatDateTime(e.createdAt)}</TD>
                </TR>
              ))}
            </TBody>
          </Table>
        </div>
      )}
      {data ? <ListPager noun="Changes" page={data.page} pageSize={data.pageSize} totalCount={data.totalCount} onPage={setPage} /> : null}
    </Card>
  );
}
