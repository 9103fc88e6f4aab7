"use client";

import Link from "next/link";
import { useMemo } from "react";
import { errorMessage } from "@/components/lib/api-client";
import { formatDateTime, formatRelative } from "@/components/lib/format";
import { Alert } from "@/components/ui/alert";
import { buttonClasses } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { ListPager, ListToolbar, useListFilters } from "@/components/ui/filtered-list";
import { TBody, TD, TH, THead, TR, Table } from "@/components/ui/table";
import { PackageStatusBadge } from "./badges";
import { PACKAGES_PAGE_SIZE, useActiveTemplates, useMembers, usePackageList, type TListTab, type TPackageSummary } from "./query";

const TABS: { value: TListTab; label: string }[] = [
  { value: "all", label: "All" },
  { value: "DRAFT", label: "Draft" },
  { value: "SCHEDULED", label: "Scheduled" },
  { value: "IN_PROGRESS", label: "In progress" },
  { value: "VIEWED", label: "Viewed" },
  { value: "COMPLETED", label: "Completed" },
  { value: "DECLINED", label: "Declined" },
  { value: "ON_HOLD", label: "On hold" },
  { value: "VOID", label: "Void" },
];

export function progressText(counts: TPackageSummary["recipientCounts"]): string {
  if (counts.total === 0) return "No recipients";
  return `${counts.completed} of ${counts.total} signed`;
}

/** The packages the member can see, newest change first: tabs by status, search by title, 20 a page. */
export function PackagesList() {
  const { filters, setFilters, typed, setTyped } = useListFilters<TListTab>("all");
  const list = usePackageList(filters);
  const templates = useActiveTemplates();
  const members = useMembers();
  const names = useMemo(() => new Map((members.data ?? []).map((m) => [m.userId, m.name])), [members.data]);

  const data = list.data;
  const filtered = filters.status !== "all" || filters.search !== "";
  const noTemplate = templates.data !== undefined && templates.data.totalCount === 0;
  const newLink = (
    <Link href="/packages/new" className={buttonClasses("primary", "md")}>
      New package from template
    </Link>
  );

  return (
    <Card>
      <ListToolbar noun="Package" tabs={TABS} filters={filters} setFilters={setFilters} typed={typed} setTyped={setTyped} searchPlaceholder="Search by title" />
      {list.isPending ? (
        <p className="px-6 py-10 text-center text-sm text-zinc-500">Loading packages…</p>
      ) : list.isError || !data ? (
        <div className="p-6">
          <Alert tone="error">{errorMessage(list.error)}</Alert>
        </div>
      ) : data.packages.length === 0 ? (
        filtered ? (
          <EmptyState title="No package matches" description="Clear the search or choose another status to see more." />
        ) : noTemplate ? (
          <EmptyState
            title="No packages yet"
            description="Packages are created from an active template. Create a template, upload its documents, add a role for each signer, place their fields and activate it."
            action={
              <Link href="/templates" className={buttonClasses("primary", "md")}>
                Go to templates
              </Link>
            }
          />
        ) : (
          <EmptyState
            title="No packages yet"
            description="Create a package from one of your active templates: name the recipients, fill in the merge fields, then send it now, schedule it or keep it as a draft."
            action={newLink}
          />
        )
      ) : (
        <Table aria-label="Packages">
          <THead>
            <TR>
              <TH>Package</TH>
              <TH>Status</TH>
              <TH className="hidden md:table-cell">Recipients</TH>
              <TH className="hidden lg:table-cell">Owner</TH>
              <TH className="hidden sm:table-cell">Updated</TH>
            </TR>
          </THead>
          <TBody>
            {data.packages.map((p) => (
              <TR key={p.id} data-testid="package-row">
                <TD className="max-w-[14rem] sm:max-w-md">
                  <Link
                    href={`/packages/${encodeURIComponent(p.id)}`}
                    className="block truncate font-medium text-zinc-900 hover:text-brand-700 hover:underline"
                  >
                    {p.title}
                  </Link>
                  <p className="truncate text-xs text-zinc-500 md:hidden">
                    {progressText(p.recipientCounts)} · <span title={formatDateTime(p.updatedAt)}>{formatRelative(p.updatedAt)}</span>
                  </p>
                  {p.externalId ? <p className="hidden truncate font-mono text-xs text-zinc-500 md:block">{p.externalId}</p> : null}
                </TD>
                <TD>
                  <PackageStatusBadge pkg={p} />
                </TD>
                <TD className="hidden whitespace-nowrap tabular-nums md:table-cell">{progressText(p.recipientCounts)}</TD>
                <TD className="hidden lg:table-cell">{names.get(p.ownerUserId) ?? "—"}</TD>
                <TD className="hidden whitespace-nowrap sm:table-cell" title={formatDateTime(p.updatedAt)}>
                  {formatRelative(p.updatedAt)}
                </TD>
              </TR>
            ))}
          </TBody>
        </Table>
      )}
      {data ? (
        <ListPager
          noun="Package"
          totalCount={data.totalCount}
          pageSize={PACKAGES_PAGE_SIZE}
          page={filters.page}
          onPage={(page) => setFilters((f) => ({ ...f, page }))}
        />
      ) : null}
    </Card>
  );
}
