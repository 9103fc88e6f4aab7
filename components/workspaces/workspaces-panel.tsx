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
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { DeleteWorkspaceDialog } from "./delete-workspace-dialog";
import { useSetWorkspaceTestMode, useWorkspaces, type TWorkspace } from "./query";
import { WorkspaceDialog } from "./workspace-dialog";

/** What switching does, said before it is done (docs/decisions/test-mode.md). */
function switchDescription(w: TWorkspace) {
  return w.isTest
    ? `“${w.name}” becomes a live workspace: its mail is sent, its sends count against your plan and its seals are valid. Every API key of this workspace is revoked now (test keys read fsk_test_…); issue new ones afterwards. Only a workspace that has never sent a package can switch.`
    : `“${w.name}” becomes a test workspace: no mail leaves this instance, nothing counts against your plan, and sealed files are marked “TEST — not a valid signature”. Every API key of this workspace is revoked now; new keys read fsk_test_…. Only a workspace that has never sent a package can switch.`;
}

export function WorkspacesPanel({ canManage }: { canManage: boolean }) {
  const workspaces = useWorkspaces();
  const [dialog, setDialog] = useState<{ workspace?: TWorkspace } | null>(null);
  const [switching, setSwitching] = useState<TWorkspace | null>(null);
  const [switched, setSwitched] = useState<string | null>(null);
  const setTestMode = useSetWorkspaceTestMode();
  const [deleting, setDeleting] = useState<TWorkspace | null>(null);

  return (
    <>
      <Card>
        <CardHeader
          title="Workspaces"
          description="Packages, templates, webhooks and API keys each belong to one workspace. Once a workspace has sent a package its mode stays, and a live one is kept as evidence."
          actions={canManage ? <Button onClick={() => setDialog({})}>New workspace</Button> : null}
        />
        {switched ? (
          <div className="px-6 pt-4">
            <Alert tone="success">{switched}</Alert>
          </div>
        ) : null}
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
                <TH>Mode</TH>
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
                  <TD className="min-w-32 max-w-64">
                    <span className="font-medium wrap-anywhere text-zinc-900">{w.name}</span>
                    {w.isDefault ? (
                      <Badge tone="brand" className="ml-2">
                        Default
                      </Badge>
                    ) : null}
                  </TD>
                  <TD>
                    {w.isTest ? (
                      <Badge tone="warning" className="font-semibold uppercase">
                        Test
                      </Badge>
                    ) : (
                      <span className="text-zinc-700">Live</span>
                    )}
                    {w.hasSent ? (
                      <span className="block text-xs text-zinc-500" title="A workspace that has sent a package keeps its mode, and a live one its records">
                        Has sent packages
                      </span>
                    ) : null}
                  </TD>
                  <TD>
                    <code className="font-mono text-xs text-zinc-700">{w.slug}</code>
                  </TD>
                  <TD>{formatDate(w.createdAt)}</TD>
                  {canManage ? (
                    <TD className="text-right whitespace-nowrap">
                      <Button variant="ghost" size="sm" onClick={() => setDialog({ workspace: w })}>
                        Rename<span className="sr-only"> {w.name}</span>
                      </Button>
                      {!w.hasSent ? (
                        <Button variant="ghost" size="sm" onClick={() => setSwitching(w)}>
                          {w.isTest ? "Make live" : "Make test"}
                          <span className="sr-only"> {w.name}</span>
                        </Button>
                      ) : null}
                      {!w.isDefault && (w.isTest || !w.hasSent) ? (
                        <Button variant="danger-ghost" size="sm" onClick={() => setDeleting(w)}>
                          Delete<span className="sr-only"> {w.name}</span>
                        </Button>
                      ) : null}
                    </TD>
                  ) : null}
                </TR>
              ))}
            </TBody>
          </Table>
        )}
      </Card>
      <DeleteWorkspaceDialog workspace={deleting} onClose={() => setDeleting(null)} onDeleted={setSwitched} />
      <WorkspaceDialog open={dialog !== null} onClose={() => setDialog(null)} workspace={dialog?.workspace} />
      <ConfirmDialog
        open={switching !== null}
        title={switching ? (switching.isTest ? `Make “${switching.name}” live?` : `Make “${switching.name}” a test workspace?`) : ""}
        description={switching ? switchDescription(switching) : ""}
        confirmLabel={switching?.isTest ? "Make live" : "Make test"}
        pending={setTestMode.isPending}
        error={setTestMode.isError ? errorMessage(setTestMode.error) : null}
        onCancel={() => {
          setTestMode.reset();
          setSwitching(null);
        }}
        onConfirm={() =>
          switching &&
          setTestMode.mutate(
            { id: switching.id, test: !switching.isTest },
            {
              onSuccess: (done) => {
                const keys = done.keysRevoked === 1 ? "1 API key was revoked" : `${done.keysRevoked} API keys were revoked`;
                setSwitched(`“${done.name}” is now a ${done.isTest ? "test" : "live"} workspace; ${keys}.`);
                setSwitching(null);
              },
            },
          )
        }
      />
    </>
  );
}
