"use client";

import { useRef, useState, type RefObject } from "react";
import { errorMessage } from "@/components/lib/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { SessionName, SessionSummary } from "@/components/account/session-summary";
import { useEndMemberSession, useMemberSessions, type TMember } from "./query";

/**
 * The owner's view of where a member is signed in (Members → Sessions): each session's browser and system,
 * address, sign-in time and last activity, the most recent first. One session is signed out from its row, asked
 * there first (Cancel focused; the others keep working); _Sign out everywhere_ hands over to the confirmation
 * (`onSignOut`); with no session it is disabled.
 */
export function MemberSessionsDialog({ member, onClose, onSignOut }: { member: TMember | null; onClose: () => void; onSignOut: (member: TMember) => void }) {
  const sessions = useMemberSessions(member?.userId ?? null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const count = sessions.data?.length ?? 0;
  return (
    <Dialog
      open={member !== null}
      onClose={onClose}
      title={`Where ${member?.name ?? ""} is signed in`}
      description="Their sessions in this organisation, the most recently active first. Sessions unused for 7 days end by themselves, and every session ends 30 days after its sign-in."
      footer={
        <>
          <Button variant="secondary" onClick={onClose} data-autofocus ref={closeRef}>
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
      ) : member ? (
        // Keyed by member: another member's sessions start with nothing asked and nothing said.
        <SessionRows key={member.userId} member={member} sessions={sessions.data} closeRef={closeRef} />
      ) : null}
    </Dialog>
  );
}

type TMemberSessionItem = NonNullable<ReturnType<typeof useMemberSessions>["data"]>[number];

function SessionRows({ member, sessions, closeRef }: { member: TMember; sessions: TMemberSessionItem[]; closeRef: RefObject<HTMLButtonElement | null> }) {
  const end = useEndMemberSession();
  const [asking, setAsking] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  // After Cancel, the row's Sign out button takes the focus back as it mounts again.
  const refocus = useRef<string | null>(null);

  const signOutOne = (session: TMemberSessionItem) =>
    end.mutate(
      { userId: member.userId, sessionId: session.id },
      {
        onSuccess: () => {
          setNotice(`Signed ${member.name} out of ${session.device}.`);
          setAsking(null);
          closeRef.current?.focus();
        },
      },
    );

  return (
    <>
      {notice ? (
        <Alert tone="success" className="mb-3">
          {notice}
        </Alert>
      ) : null}
      {end.isError ? (
        <Alert tone="error" className="mb-3">
          {errorMessage(end.error)}
        </Alert>
      ) : null}
      {sessions.length === 0 ? (
        <p className="text-sm text-zinc-600">Not signed in anywhere.</p>
      ) : (
        <ul aria-label={`Sessions of ${member.name}`} className="divide-y divide-zinc-100 rounded-lg border border-zinc-200">
          {sessions.map((session) => (
            <li key={session.id} data-testid="member-session-row" className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 px-4 py-3">
              <SessionSummary session={session} />
              {asking === session.id ? (
                <div role="group" aria-label={`Sign out ${session.device}?`} className="flex flex-wrap items-center gap-2">
                  <span className="text-sm text-zinc-700">Sign out this session?</span>
                  <Button
                    variant="secondary"
                    size="sm"
                    autoFocus
                    onClick={() => {
                      refocus.current = session.id;
                      setAsking(null);
                    }}
                  >
                    Cancel
                  </Button>
                  <Button variant="danger" size="sm" pending={end.isPending} onClick={() => signOutOne(session)}>
                    Sign out
                  </Button>
                </div>
              ) : (
                <Button
                  variant="danger-ghost"
                  size="sm"
                  ref={(el) => {
                    if (el && refocus.current === session.id) {
                      refocus.current = null;
                      el.focus();
                    }
                  }}
                  onClick={() => {
                    end.reset();
                    setNotice(null);
                    setAsking(session.id);
                  }}
                >
                  Sign out
                  <SessionName session={session} />
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
