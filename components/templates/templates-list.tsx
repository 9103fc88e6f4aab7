"use client";

import Link from "next/link";
import { useState } from "react";
import { errorMessage } from "@/components/lib/api-client";
import { formatDateTime, formatRelative, plural } from "@/components/lib/format";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { ListPager, ListToolbar, useListFilters } from "@/components/ui/filtered-list";
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

/** The workspace's templates, newest change first: filter by status, search by name, 20 a page. */
export function TemplatesList({ canCreate }: { canCreate: boolean }) {
  const { filters, setFilters, typed, setTyped } = useListFilters<TListFilters["status"]>("all");
  const [creating, setCreating] = useState(false);
  const list = useTemplateList(filters);

  const data = list.data;
  const filtered = filters.status !== "all" || filters.search !== "";
  const newButton = canCreate ? <Button onClick={() => setCreating(true)}>New template</Button> : null;

  return (
    <>
      <Card>
        <ListToolbar
          noun="Template"
          tabs={TABS}
          filters={filters}
          setFilters={setFilters}
          typed={typed}
          setTyped={setTyped}
          searchPlaceholder="Search by name"
          action={newButton}
        />
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
                  {/* The whole name shows, wrapping (anywhere, for one with no space) within the cell's width. */}
                  <TD className="min-w-40 max-w-xs sm:max-w-sm">
                    <Link
                      href={`/templates/${encodeURIComponent(t.id)}`}
                      className="block font-medium wrap-anywhere text-zinc-900 hover:text-brand-700 hover:underline"
                    >
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
        {data ? (
          <ListPager
            noun="Template"
            totalCount={data.totalCount}
            pageSize={TEMPLATES_PAGE_SIZE}
            page={filters.page}
            onPage={(page) => setFilters((f) => ({ ...f, page }))}
          />
        ) : null}
      </Card>
      <NewTemplateDialog open={creating} onClose={() => setCreating(false)} />
    </>
  );
}
