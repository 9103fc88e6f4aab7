"use client";

import { errorMessage } from "@/components/lib/api-client";
import { formatDateTime, formatRelative } from "@/components/lib/format";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { useMemberSessions, type TMember } from "./query";

/**
 * The owner's view of where a member is signed in (Members → Sessions): each session's browser and system,
 * address, sign-in time and last activity, the most recent first. _Sign out everywhere_ hands over to the
 * confirmation (`onSignOut`); with no session it is disabled.
 */
export function MemberSessionsDialog({ member, onClose, onSignOut }: { member: TMember | null; onClose: () => void; onSignOut: (member: TMember) => void }) {
  const sessions = useMemberSessions(member?.userId ?? null);
  const count = sessions.data?.length ?? 0;
  return (
    <Dialog
      open={member !== null}
      onClose={onClose}
      title={`Where ${member?.name ?? ""} is signed in`}
      description="Their sessions in this organisation, the most recently active first. Sessions unused for 7 days end by themselves, and every session ends 30 days after its sign-in."
      footer={
        <>
          <Button variant="secondary" onClick={onClose} data-autofocus>
            Close
          </Button>
          <Button variant="danger" onClick={() => member && onSignOut(member)} disabled={count === 0}>
            Sign out everywhere
          </Button>
        </>
      }
    >
      {sessions.isPending ? (
        <p className="text-sm text-zinc-500">Loading sessions…</p>
      ) : sessions.isError ? (
        <Alert tone="error">{errorMessage(sessions.error)}</Alert>
      ) : count === 0 ? (
        <p className="text-sm text-zinc-600">Not signed in anywhere.</p>
      ) : (
        <ul aria-label={`Sessions of ${member?.name ?? ""}`} className="divide-y divide-zinc-100 rounded-lg border border-zinc-200">
          {sessions.data.map((session) => (
            <li key={session.id} data-testid="member-session-row" className="px-4 py-3">
              <p className="font-medium text-zinc-900">{session.device}</p>
              <p className="text-sm text-zinc-600">
                {session.clientAddress ?? "Address unknown"} · signed in {formatDateTime(session.signedInAt)}
              </p>
              <p className="text-xs text-zinc-500" title={formatDateTime(session.lastActiveAt)}>
                Last active {formatRelative(session.lastActiveAt)}
              </p>
            </li>
          ))}
        </ul>
      )}
    </Dialog>
  );
}
