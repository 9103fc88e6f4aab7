"use client";

import Link from "next/link";
import { useEffect, useState } from "react";
import { errorMessage } from "@/components/lib/api-client";
import { formatDateTime, formatRelative } from "@/components/lib/format";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { EmptyState } from "@/components/ui/empty-state";
import { Input } from "@/components/ui/input";
import { TBody, TD, TH, THead, TR, Table } from "@/components/ui/table";
import { TemplateStatusBadge } from "./badges";
import { NewTemplateDialog } from "./new-template-dialog";
import { TEMPLATES_PAGE_SIZE, useTemplateList, type TListFilters } from "./query";

const TABS: { value: TListFilters["status"]; label: string }[] = [
  { value: "all", label: "All" },
  { value: "DRAFT", label: "Draft" },
  { value: "ACTIVE", label: "Active" },
  { value: "ARCHIVED", label: "Archived" },
];

function plural(n: number, one: string, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

/** The workspace's templates, newest change first: filter by status, search by name, 20 a page. */
export function TemplatesList({ canCreate }: { canCreate: boolean }) {
  const [filters, setFilters] = useState<TListFilters>({ status: "all", search: "", page: 1 });
  const [typed, setTyped] = useState("");
  const [creating, setCreating] = useState(false);
  const list = useTemplateList(filters);

  // Searching as one types, without a request per keystroke.
  useEffect(() => {
    const timer = setTimeout(() => setFilters((f) => (f.search === typed ? f : { ...f, search: typed, page: 1 })), 300);
    return () => clearTimeout(timer);
  }, [typed]);

  const data = list.data;
  const pages = data ? Math.max(1, Math.ceil(data.totalCount / data.pageSize)) : 1;
  const filtered = filters.status !== "all" || filters.search !== "";
  const newButton = canCreate ? <Button onClick={() => setCreating(true)}>New template</Button> : null;

  return (
    <>
      <Card>
        <div className="flex flex-wrap items-center justify-between gap-3 border-b border-zinc-100 px-6 py-4">
          <div role="tablist" aria-label="Template status" className="flex flex-wrap gap-1">
            {TABS.map((tab) => (
              <button
                key={tab.value}
                type="button"
                role="tab"
                aria-selected={filters.status === tab.value}
                onClick={() => setFilters((f) => ({ ...f, status: tab.value, page: 1 }))}
                className={cn(
                  "rounded-md px-3 py-1.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-brand-600",
                  filters.status === tab.value ? "bg-brand-50 text-brand-700" : "text-zinc-600 hover:bg-zinc-100",
                )}
              >
                {tab.label}
              </button>
            ))}
          </div>
          <div className="flex w-full flex-wrap items-center gap-3 sm:w-auto">
            <label className="sr-only" htmlFor="template-search">
              Search templates
            </label>
            <Input
              id="template-search"
              type="search"
              placeholder="Search by name"
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
              className="h-9 min-w-0 flex-1 sm:w-64"
            />
            {newButton}
          </div>
        </div>
        {list.isPending ? (
          <p className="px-6 py-10 text-center text-sm text-zinc-500">Loading templates…</p>
        ) : list.isError || !data ? (
          <div className="p-6">
            <Alert tone="error">{errorMessage(list.error)}</Alert>
          </div>
        ) : data.templates.length === 0 ? (
          filtered ? (
            <EmptyState title="No template matches" description="Clear the search or choose another status to see more." />
          ) : (
            <EmptyState
              title="No templates yet"
              description={
                canCreate
                  ? "Create a template, upload its PDF or Word documents, add a role for each signer, place their fields, then activate it to create packages from it."
                  : "Templates are created by members whose role may create templates. Ask one of them, or the organisation's owner, to create one."
              }
              action={newButton}
            />
          )
        ) : (
          <Table aria-label="Templates">
            <THead>
              <TR>
                <TH>Template</TH>
                <TH>Status</TH>
                <TH className="hidden text-right md:table-cell">Documents</TH>
                <TH className="hidden text-right md:table-cell">Roles</TH>
                <TH className="hidden text-right md:table-cell">Fields</TH>
                <TH>Updated</TH>
              </TR>
            </THead>
            <TBody>
              {data.templates.map((t) => (
                <TR key={t.id} data-testid="template-row">
                  <TD className="max-w-xs sm:max-w-md">
                    <Link href={`/templates/${encodeURIComponent(t.id)}`} className="block truncate font-medium text-zinc-900 hover:text-brand-700 hover:underline">
                      {t.name}
                    </Link>
                    {t.description ? <p className="truncate text-xs text-zinc-500">{t.description}</p> : null}
                    <p className="text-xs text-zinc-500 md:hidden">
                      {plural(t.documentCount, "document")} · {plural(t.roleCount, "role")} · {plural(t.fieldCount, "field")}
                    </p>
                  </TD>
                  <TD>
                    <TemplateStatusBadge status={t.status} />
                  </TD>
                  <TD className="hidden text-right tabular-nums md:table-cell">{t.documentCount}</TD>
                  <TD className="hidden text-right tabular-nums md:table-cell">{t.roleCount}</TD>
                  <TD className="hidden text-right tabular-nums md:table-cell">{t.fieldCount}</TD>
                  <TD className="whitespace-nowrap" title={formatDateTime(t.updatedAt)}>
                    {formatRelative(t.updatedAt)}
                  </TD>
                </TR>
              ))}
            </TBody>
          </Table>
        )}
        {data && data.totalCount > TEMPLATES_PAGE_SIZE ? (
          <nav aria-label="Template pages" className="flex items-center justify-between border-t border-zinc-100 px-6 py-3 text-sm text-zinc-600">
            <span>
              {plural(data.totalCount, "template")} · page {filters.page} of {pages}
            </span>
            <span className="flex gap-2">
              <Button variant="secondary" size="sm" disabled={filters.page <= 1} onClick={() => setFilters((f) => ({ ...f, page: f.page - 1 }))}>
                Previous
              </Button>
              <Button variant="secondary" size="sm" disabled={filters.page >= pages} onClick={() => setFilters((f) => ({ ...f, page: f.page + 1 }))}>
                Next
              </Button>
            </span>
          </nav>
        ) : null}
      </Card>
      <NewTemplateDialog open={creating} onClose={() => setCreating(false)} />
    </>
  );
}
