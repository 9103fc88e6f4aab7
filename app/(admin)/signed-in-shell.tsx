import type { ReactNode } from "react";
import { AppShell } from "@/components/shell/app-shell";
import type { TActiveSession } from "@/server/auth/session";
import { getDb } from "@/server/db/client";
import { can } from "@/server/domain/access/gates";
import { listWorkspaces } from "@/server/domain/organisation/list-workspaces";

/**
 * The app shell with what it shows about the signed-in member. Used by the (admin) layout and by the root 404,
 * so an unknown address opened while signed in keeps the navigation.
 */
export async function SignedInShell({ session, children }: { session: TActiveSession; children: ReactNode }) {
  const { actor, organisationName } = session;
  const workspaces = await listWorkspaces(await getDb(), actor);
  return (
    <AppShell
      user={{ name: actor.user.name, email: actor.user.email, isOwner: actor.isOwner }}
      organisationName={organisationName}
      workspaces={workspaces.map((w) => ({ id: w.id, name: w.name, isTest: w.isTest }))}
      currentWorkspaceId={actor.workspace.id}
      testMode={actor.workspace.isTest}
      permissions={{ canManageWebhooks: can(actor, "canManageWebhooks"), canSendPackages: can(actor, "canSendPackages") }}
    >
      {children}
    </AppShell>
  );
}
