"use client";

import Link from "next/link";
import { useState } from "react";
import { errorMessage } from "@/components/lib/api-client";
import { plural } from "@/components/lib/format";
import { Alert } from "@/components/ui/alert";
import { Button, buttonClasses } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { ConfirmDialog, ConfirmItemDialog } from "@/components/ui/confirm-dialog";
import { SessionName, SessionSummary } from "./session-summary";
import { useEndOtherSessions, useEndSession, useMySessions, type TSession } from "./sessions-query";

/**
 * Where the member is signed in (Account page): this browser first, then the others by last activity, each with
 * its browser and system, address, sign-in time and last activity. Another session can be signed out (asked
 * first); its next request goes to the sign-in page. This one is signed out the usual way.
 */
export function SessionsCard() {
  const sessions = useMySessions();
  const end = useEndSession();
  const endOthers = useEndOtherSessions();
  const [ending, setEnding] = useState<TSession | null>(null);
  const [endingOthers, setEndingOthers] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const others = (sessions.data ?? []).filter((s) => !s.current).length;

  const signOutOthers = (
    <Button variant="secondary" size="sm" onClick={() => setEndingOthers(true)} disabled={others === 0}>
      Sign out all other sessions
    </Button>
  );

  return (
    <>
      <Card>
        <CardHeader
          title="Where you’re signed in"
          description="Your sessions in this organisation. Signing one out ends it at its next request. Sessions unused for 7 days end by themselves, and every session ends 30 days after its sign-in."
          actions={signOutOthers}
        />
        {notice ? (
          <div className="px-6 pt-4">
            <Alert tone="success">{notice}</Alert>
          </div>
        ) : null}
        {sessions.isPending ? (
          <p className="px-6 py-10 text-center text-sm text-zinc-500">Loading sessions…</p>
        ) : sessions.isError ? (
          <div className="p-6">
            <Alert tone="error">{errorMessage(sessions.error)}</Alert>
          </div>
        ) : (
          <ul aria-label="Your sessions" className="divide-y divide-zinc-100">
            {sessions.data.map((session) => (
              <li key={session.id} data-testid="session-row" className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 px-6 py-4">
                <SessionSummary session={session} />
                {session.current ? (
                  <Link href="/signout" className={buttonClasses("ghost", "sm")}>
                    Sign out
                  </Link>
                ) : (
                  <Button variant="danger-ghost" size="sm" onClick={() => setEnding(session)}>
                    Sign out
                    <SessionName session={session} />
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
        {sessions.data && others === 0 ? (
          <p className="border-t border-zinc-100 px-6 py-4 text-sm text-zinc-500">You are not signed in anywhere else.</p>
        ) : null}
      </Card>

      <ConfirmItemDialog
        item={ending}
        onClose={() => setEnding(null)}
        mutation={{
          ...end,
          mutate: (id, options) =>
            end.mutate(id, {
              onSuccess: () => {
                setNotice(`Signed out ${ending?.device ?? "the session"}.`);
                options.onSuccess();
              },
            }),
        }}
        title={(session) => `Sign out ${session.device}?`}
        description="That browser goes to the sign-in page at its next request. Anything unsaved there is lost."
        confirmLabel="Sign out"
      />
      <ConfirmDialog
        open={endingOthers}
        title="Sign out all other sessions?"
        description={`${plural(others, "other session")} will go to the sign-in page at their next request. This browser stays signed in.`}
        confirmLabel="Sign out others"
        pending={endOthers.isPending}
        error={endOthers.isError ? errorMessage(endOthers.error) : null}
        onCancel={() => {
          endOthers.reset();
          setEndingOthers(false);
        }}
        onConfirm={() =>
          endOthers.mutate(undefined, {
            onSuccess: (res) => {
              setNotice(`Signed out ${plural(res.ended, "other session")}.`);
              setEndingOthers(false);
            },
          })
        }
      />
    </>
  );
}
