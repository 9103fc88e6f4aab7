import type { ReactNode } from "react";
import { AppShell } from "@/components/shell/app-shell";
import { requireActiveSession } from "@/server/auth/session";
import { workspaceCookie } from "@/server/auth/workspace-cookie";
import { getDb } from "@/server/db/client";
import { listWorkspaces } from "@/server/domain/organisation/list-workspaces";
import { canManageWebhooks } from "@/server/domain/webhooks-app/can-manage-webhooks";
import { resolveCurrentWorkspace } from "@/server/domain/webhooks-app/resolve-current-workspace";

/** Every signed-in page: no session → /signin (or /setup on a fresh install). */
export default async function AdminLayout({ children }: { children: ReactNode }) {
  const { actor, organisationName } = await requireActiveSession();
  const db = await getDb();
  const [workspaces, current, webhooks] = await Promise.all([
    listWorkspaces(db, actor),
    resolveCurrentWorkspace(db, actor, { requestedId: await workspaceCookie() }),
    canManageWebhooks(db, actor),
  ]);
  return (
    <AppShell
      user={{ name: actor.name, email: actor.email, isOwner: actor.isOwner }}
      organisationName={organisationName}
      workspaces={workspaces.map((w) => ({ id: w.id, name: w.name }))}
      currentWorkspaceId={current.id}
      permissions={{ canManageWebhooks: webhooks }}
    >
      {children}
    </AppShell>
  );
}
