import { formatDateTime, formatRelative } from "@/components/lib/format";
import { Badge } from "@/components/ui/badge";

type TSessionShown = { device: string; clientAddress: string | null; signedInAt: string; lastActiveAt: string; current?: boolean };

/**
 * One signed-in session as the lists show it (Your account, and a member's Sessions on Members): browser and
 * system, address, sign-in time and last activity; the session asking is "This browser", active now.
 */
export function SessionSummary({ session }: { session: TSessionShown }) {
  return (
    <div className="min-w-0">
      <p className="flex flex-wrap items-center gap-2 font-medium text-zinc-900">
        {session.device}
        {session.current ? <Badge tone="brand">This browser</Badge> : null}
      </p>
      <p className="text-sm text-zinc-600">
        {session.clientAddress ?? "Address unknown"} · signed in {formatDateTime(session.signedInAt)}
      </p>
      <p className="text-xs text-zinc-500" title={formatDateTime(session.lastActiveAt)}>
        {session.current ? "Active now" : `Last active ${formatRelative(session.lastActiveAt)}`}
      </p>
    </div>
  );
}

/** What a session's Sign out button says to a screen reader after "Sign out": which session. */
export function SessionName({ session }: { session: TSessionShown }) {
  return (
    <span className="sr-only">
      {" "}
      {session.device}, signed in {formatDateTime(session.signedInAt)}
    </span>
  );
}
