"use client";

import { useState } from "react";
import { errorMessage } from "@/components/lib/api-client";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { ConfirmItemDialog } from "@/components/ui/confirm-dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { TBody, TD, TH, THead, TR, Table } from "@/components/ui/table";
import { PERMISSION_LABELS, TEMPLATE_ACCESS_LABELS } from "./permissions";
import { useDeleteRole, useRoles, type TRole } from "./query";
import { RoleDialog } from "./role-dialog";

function Allowed({ yes, label }: { yes: boolean; label: string }) {
  return yes ? (
    <span className="inline-flex items-center gap-1 text-emerald-700">
      <svg viewBox="0 0 20 20" className="size-4" fill="currentColor" aria-hidden="true">
        <path d="M16.7 5.3a1 1 0 0 1 0 1.4l-8 8a1 1 0 0 1-1.4 0l-4-4a1 1 0 1 1 1.4-1.4L8 12.6l7.3-7.3a1 1 0 0 1 1.4 0Z" />
      </svg>
      <span className="sr-only">{label}: yes</span>
    </span>
  ) : (
    <span className="text-zinc-300">
      <span aria-hidden="true">—</span>
      <span className="sr-only">{label}: no</span>
    </span>
  );
}

export function RolesPanel({ canManage }: { canManage: boolean }) {
  const roles = useRoles();
  const remove = useDeleteRole();
  const [editing, setEditing] = useState<{ role?: TRole } | null>(null);
  const [deleting, setDeleting] = useState<TRole | null>(null);
  const custom = roles.data?.filter((r) => !r.builtIn) ?? [];

  return (
    <>
      <Card>
        <CardHeader
          title="Roles"
          description="Built-in roles are read-only. Admin has API access and every permission; Sender and Viewer have no API access."
          actions={canManage ? <Button onClick={() => setEditing({})}>New role</Button> : null}
        />
        {roles.isPending ? (
          <p className="px-6 py-10 text-center text-sm text-zinc-500">Loading roles…</p>
        ) : roles.isError ? (
          <div className="p-6">
            <Alert tone="error">{errorMessage(roles.error)}</Alert>
          </div>
        ) : (
          <Table aria-label="Roles">
            <THead>
              <TR>
                <TH>Role</TH>
                {PERMISSION_LABELS.map((p) => (
                  <TH key={p.key} className="text-center whitespace-nowrap" title={p.label}>
                    {p.short}
                  </TH>
                ))}
                <TH>Templates</TH>
                <TH>Used by</TH>
                <TH className="text-right">
                  <span className="sr-only">Actions</span>
                </TH>
              </TR>
            </THead>
            <TBody>
              {roles.data.map((role) => (
                <TR key={role.id} data-testid="role-row">
                  {/* A long name wraps (anywhere, for one with no space) instead of widening the table. */}
                  <TD className="min-w-32 max-w-64">
                    <span className="inline-flex flex-wrap items-center gap-2">
                      <span className="font-medium wrap-anywhere text-zinc-900">{role.name}</span>
                      {role.builtIn ? <Badge tone="neutral">Built-in</Badge> : null}
                    </span>
                  </TD>
                  {PERMISSION_LABELS.map((p) => (
                    <TD key={p.key} className="text-center">
                      <Allowed yes={role[p.key]} label={p.label} />
                    </TD>
                  ))}
                  <TD className="whitespace-nowrap">{TEMPLATE_ACCESS_LABELS[role.templateAccess]}</TD>
                  <TD className="text-xs text-zinc-500">
                    <span className="block whitespace-nowrap">
                      {role.memberCount} member{role.memberCount === 1 ? "" : "s"}
                    </span>
                    <span className="block whitespace-nowrap">
                      {role.keyCount} API key{role.keyCount === 1 ? "" : "s"}
                    </span>
                  </TD>
                  <TD className="text-right whitespace-nowrap">
                    {role.builtIn ? (
                      <span className="text-xs text-zinc-600">Read-only</span>
                    ) : canManage ? (
                      <>
                        <Button variant="ghost" size="sm" onClick={() => setEditing({ role })}>
                          Edit<span className="sr-only"> {role.name}</span>
                        </Button>
                        <Button
                          variant="danger-ghost"
                          size="sm"
                          disabled={!role.deletable}
                          title={role.deletable ? undefined : "In use by members or API keys (revoked keys included)"}
                          onClick={() => setDeleting(role)}
                        >
                          Delete<span className="sr-only"> {role.name}</span>
                        </Button>
                      </>
                    ) : null}
                  </TD>
                </TR>
              ))}
            </TBody>
          </Table>
        )}
        {roles.isSuccess && custom.length === 0 ? (
          <div className="border-t border-zinc-100">
            <EmptyState
              title="No custom roles yet"
              description="Create a role when the built-in ones do not fit, e.g. an API role that may send packages but not manage webhooks."
            />
          </div>
        ) : null}
      </Card>
      <RoleDialog open={editing !== null} onClose={() => setEditing(null)} role={editing?.role} />
      <ConfirmItemDialog
        item={deleting}
        onClose={() => setDeleting(null)}
        mutation={remove}
        title={(role) => `Delete the role “${role.name}”?`}
        description="Nothing uses this role. Deleting it cannot be undone."
        confirmLabel="Delete role"
      />
    </>
  );
}
