"use client";

import { useDeferredValue, useState } from "react";
import { formatDate } from "@/components/lib/format";
import { errorMessage } from "@/components/lib/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { ConfirmItemDialog } from "@/components/ui/confirm-dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { Input } from "@/components/ui/input";
import { TBody, TD, TH, THead, TR, Table } from "@/components/ui/table";
import { formatBytes } from "./format-bytes";
import { useDeleteLibraryDocument, useLibraryDocuments, type TLibraryDocument } from "./query";
import { RenameDialog } from "./rename-dialog";
import { UploadZone } from "./upload-zone";

/** The API answers at most this many documents per search (spec). */
const SEARCH_LIMIT = 50;

export function LibraryPanel({ canManage, maxBytes }: { canManage: boolean; maxBytes: number }) {
  const [search, setSearch] = useState("");
  const deferred = useDeferredValue(search.trim());
  const docs = useLibraryDocuments(deferred);
  const remove = useDeleteLibraryDocument();
  const [renaming, setRenaming] = useState<TLibraryDocument | null>(null);
  const [deleting, setDeleting] = useState<TLibraryDocument | null>(null);
  const list = docs.data?.documents ?? [];

  return (
    <div className="space-y-6">
      {canManage ? (
        <Card>
          <CardHeader title="Add documents" description="Upload a PDF once and add it to any template or package of this workspace." />
          <CardBody>
            <UploadZone maxBytes={maxBytes} />
          </CardBody>
        </Card>
      ) : null}
      <Card>
        <CardHeader
          title="Documents"
          actions={
            <Input
              type="search"
              aria-label="Search the library by name"
              placeholder="Search by name"
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              className="w-56 max-w-full"
            />
          }
        />
        {docs.isPending ? (
          <p className="px-6 py-10 text-center text-sm text-zinc-500">Loading the library…</p>
        ) : docs.isError ? (
          <div className="p-6">
            <Alert tone="error">{errorMessage(docs.error)}</Alert>
          </div>
        ) : list.length === 0 ? (
          deferred ? (
            <EmptyState title={`No document matches “${deferred}”`} description="Search looks anywhere in the name, ignoring case." />
          ) : (
            <EmptyState
              title="The library is empty"
              description={
                canManage
                  ? "Drag a PDF into the box above, or choose files, to add reusable documents such as NDAs or terms."
                  : "Members who can create templates add reusable PDFs here."
              }
            />
          )
        ) : (
          <>
            <Table aria-label="Library documents">
              <THead>
                <TR>
                  <TH>Name</TH>
                  <TH className="hidden sm:table-cell">Pages</TH>
                  <TH className="hidden sm:table-cell">Size</TH>
                  <TH className="hidden md:table-cell">Added</TH>
                  <TH className="text-right">
                    <span className="sr-only">Actions</span>
                  </TH>
                </TR>
              </THead>
              <TBody>
                {list.map((doc) => (
                  <TR key={doc.id} data-testid="library-row">
                    <TD>
                      <span className="block font-medium break-words text-zinc-900">{doc.name}</span>
                      <span className="block text-xs text-zinc-500 sm:hidden">
                        {doc.pageCount} page{doc.pageCount === 1 ? "" : "s"} · {formatBytes(doc.fileSize)}
                      </span>
                    </TD>
                    <TD className="hidden sm:table-cell">{doc.pageCount}</TD>
                    <TD className="hidden whitespace-nowrap sm:table-cell">{formatBytes(doc.fileSize)}</TD>
                    <TD className="hidden whitespace-nowrap md:table-cell">{formatDate(doc.createdAt)}</TD>
                    <TD className="text-right whitespace-nowrap">
                      {canManage ? (
                        <>
                          <Button variant="ghost" size="sm" onClick={() => setRenaming(doc)}>
                            Rename<span className="sr-only"> {doc.name}</span>
                          </Button>
                          <Button variant="danger-ghost" size="sm" onClick={() => setDeleting(doc)}>
                            Delete<span className="sr-only"> {doc.name}</span>
                          </Button>
                        </>
                      ) : null}
                    </TD>
                  </TR>
                ))}
              </TBody>
            </Table>
            {list.length >= SEARCH_LIMIT ? (
              <p className="border-t border-zinc-100 px-6 py-3 text-xs text-zinc-500">Showing the first {SEARCH_LIMIT} by name. Search to find others.</p>
            ) : null}
          </>
        )}
      </Card>
      <RenameDialog document={renaming} onClose={() => setRenaming(null)} />
      <ConfirmItemDialog
        item={deleting}
        onClose={() => setDeleting(null)}
        mutation={remove}
        title={(doc) => `Delete “${doc.name}” from the library?`}
        description="Templates and packages that already added it keep their copy. It can no longer be added to new ones."
        confirmLabel="Delete document"
      />
    </div>
  );
}
