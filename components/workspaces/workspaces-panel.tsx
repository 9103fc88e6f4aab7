"use client";

import { useState } from "react";
import { errorMessage } from "@/components/lib/api-client";
import { formatDate } from "@/components/lib/format";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { TBody, TD, TH, THead, TR, Table } from "@/components/ui/table";
import { useWorkspaces, type TWorkspace } from "./query";
import { WorkspaceDialog } from "./workspace-dialog";

export function WorkspacesPanel({ canManage }: { canManage: boolean }) {
  const workspaces = useWorkspaces();
  const [dialog, setDialog] = useState<{ workspace?: TWorkspace } | null>(null);

  return (
    <>
      <Card>
        <CardHeader
          title="Workspaces"
          description="Packages, templates, webhooks and API keys each belong to one workspace."
          actions={canManage ? <Button onClick={() => setDialog({})}>New workspace</Button> : null}
        />
        {workspaces.isPending ? (
          <p className="px-6 py-10 text-center text-sm text-zinc-500">Loading workspaces…</p>
        ) : workspaces.isError ? (
          <div className="p-6">
            <Alert tone="error">{errorMessage(workspaces.error)}</Alert>
          </div>
        ) : workspaces.data.length === 0 ? (
          <EmptyState title="No workspaces" description="Every organisation has a default workspace; create one to start." />
        ) : (
          <Table aria-label="Workspaces">
            <THead>
              <TR>
                <TH>Name</TH>
                <TH>Slug</TH>
                <TH>Created</TH>
                {canManage ? (
                  <TH className="text-right">
                    <span className="sr-only">Actions</span>
                  </TH>
                ) : null}
              </TR>
            </THead>
            <TBody>
              {workspaces.data.map((w) => (
                <TR key={w.id} data-testid="workspace-row">
                  <TD>
                    <span className="font-medium text-zinc-900">{w.name}</span>
                    {w.isDefault ? (
                      <Badge tone="brand" className="ml-2">
                        Default
                      </Badge>
                    ) : null}
                  </TD>
                  <TD>
                    <code className="font-mono text-xs text-zinc-700">{w.slug}</code>
                  </TD>
                  <TD>{formatDate(w.createdAt)}</TD>
                  {canManage ? (
                    <TD className="text-right">
                      <Button variant="ghost" size="sm" onClick={() => setDialog({ workspace: w })}>
                        Rename<span className="sr-only"> {w.name}</span>
                      </Button>
                    </TD>
                  ) : null}
                </TR>
              ))}
            </TBody>
          </Table>
        )}
      </Card>
      <WorkspaceDialog open={dialog !== null} onClose={() => setDialog(null)} workspace={dialog?.workspace} />
    </>
  );
}
