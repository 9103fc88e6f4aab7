"use client";

import { useState } from "react";
import { errorMessage } from "@/components/lib/api-client";
import { formatDateTime, formatRelative } from "@/components/lib/format";
import { useRoles } from "@/components/roles/query";
import { useWorkspaces } from "@/components/workspaces/query";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { ConfirmItemDialog } from "@/components/ui/confirm-dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { TBody, TD, TH, THead, TR, Table } from "@/components/ui/table";
import { CreateKeyDialog } from "./create-key-dialog";
import { KeyCreatedDialog } from "./key-created-dialog";
import { KeyStatusBadge } from "./key-status-badge";
import { useApiKeys, useRevokeApiKey, type TApiKey, type TNewApiKey } from "./query";

export function ApiKeysPanel() {
  const keys = useApiKeys();
  const roles = useRoles();
  const workspaces = useWorkspaces();
  const revoke = useRevokeApiKey();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<TNewApiKey | null>(null);
  const [revoking, setRevoking] = useState<TApiKey | null>(null);

  const createButton = (
    <Button onClick={() => setCreating(true)} disabled={!roles.data || !workspaces.data}>
      Create key
    </Button>
  );

  return (
    <>
      <Card>
        <CardHeader title="Keys" description="Each key acts as one role in one workspace. Revoking is immediate and permanent." actions={createButton} />
        {keys.isPending ? (
          <p className="px-6 py-10 text-center text-sm text-zinc-500">Loading keys…</p>
        ) : keys.isError ? (
          <div className="p-6">
            <Alert tone="error">{errorMessage(keys.error)}</Alert>
          </div>
        ) : keys.data.length === 0 ? (
          <EmptyState
            title="No API keys yet"
            description="Create a key for each system that calls the Foliosign API, so you can revoke one without disturbing the others."
            action={createButton}
          />
        ) : (
          <Table aria-label="API keys">
            <THead>
              <TR>
                <TH>Name</TH>
                {/* On a phone the key, role and issuer move under the name, so Status and Revoke stay on screen. */}
                <TH className="hidden sm:table-cell">Key</TH>
                <TH className="hidden sm:table-cell">Can do</TH>
                <TH className="hidden sm:table-cell">Issued by</TH>
                <TH>Status</TH>
                <TH className="text-right">
                  <span className="sr-only">Actions</span>
                </TH>
              </TR>
            </THead>
            <TBody>
              {keys.data.map((key) => (
                <TR key={key.id} data-testid="api-key-row">
                  <TD className="min-w-40 max-w-64">
                    <p className="font-medium wrap-anywhere text-zinc-900">{key.name}</p>
                    <p className="text-xs text-zinc-500" title={key.lastUsedAt ? formatDateTime(key.lastUsedAt) : undefined}>
                      {key.lastUsedAt ? `Last used ${formatRelative(key.lastUsedAt)}` : "Never used"} · {key.workspace.name}
                      {key.status === "ACTIVE" && key.expiresAt ? ` · expires ${formatDateTime(key.expiresAt)}` : null}
                    </p>
                    <p className="text-xs text-zinc-600 sm:hidden">
                      <code className="font-mono">{key.prefix}…</code> · {key.role.name} · by {key.issuedBy.name}
                    </p>
                  </TD>
                  <TD className="hidden sm:table-cell">
                    <code className="rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-xs text-zinc-800">{key.prefix}…</code>
                  </TD>
                  <TD className="hidden sm:table-cell">{key.role.name}</TD>
                  <TD className="hidden sm:table-cell">
                    <span title={key.issuedBy.email}>{key.issuedBy.name}</span>
                  </TD>
                  <TD>
                    <KeyStatusBadge apiKey={key} />
                  </TD>
                  <TD className="text-right">
                    {key.status !== "REVOKED" ? (
                      <Button variant="danger-ghost" size="sm" onClick={() => setRevoking(key)}>
                        Revoke<span className="sr-only"> {key.name}</span>
                      </Button>
                    ) : null}
                  </TD>
                </TR>
              ))}
            </TBody>
          </Table>
        )}
      </Card>

      <CreateKeyDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(key) => {
          setCreating(false);
          setCreated(key);
        }}
        roles={(roles.data ?? []).filter((r) => r.apiAccess)}
        workspaces={workspaces.data ?? []}
      />
      <KeyCreatedDialog apiKey={created} onDone={() => setCreated(null)} />
      <ConfirmItemDialog
        item={revoking}
        onClose={() => setRevoking(null)}
        mutation={revoke}
        title={(key) => `Revoke “${key.name}”?`}
        description="Requests with this key are refused from now on (401). This cannot be undone; create a new key if you need one again."
        confirmLabel="Revoke key"
      />
    </>
  );
}
