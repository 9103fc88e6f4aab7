"use client";

import { errorMessage } from "@/components/lib/api-client";
import { formatDateTime, formatRelative, plural } from "@/components/lib/format";
import { Alert } from "@/components/ui/alert";
import { Card, CardHeader } from "@/components/ui/card";
import { useMyFailedSignIns } from "./sessions-query";

/**
 * The member's failed sign-ins (Account page): wrong passwords given for their address in the last 30 days —
 * how many, and the newest ten with when, from which address and which browser. Guesses the throttle refused
 * before checking a password are not among them.
 */
export function FailedSignInsCard() {
  const failed = useMyFailedSignIns();
  const data = failed.data;
  return (
    <Card>
      <CardHeader
        title="Failed sign-ins"
        description="Wrong passwords given for your email address in the last 30 days. If they were not yours, change your password below: that also signs out every other session."
      />
      {failed.isPending ? (
        <p className="px-6 py-6 text-sm text-zinc-500">Loading failed sign-ins…</p>
      ) : failed.isError ? (
        <div className="p-6">
          <Alert tone="error">{errorMessage(failed.error)}</Alert>
        </div>
      ) : data!.count === 0 ? (
        <p className="px-6 py-6 text-sm text-zinc-500">No failed sign-ins in the last {data!.days} days.</p>
      ) : (
        <>
          <p className="px-6 pt-4 text-sm text-zinc-700" data-testid="failed-sign-ins-count">
            {plural(data!.count, "failed sign-in")} in the last {data!.days} days
            {data!.count > data!.recent.length ? `; the newest ${data!.recent.length}:` : ":"}
          </p>
          <ul aria-label="Failed sign-ins" className="divide-y divide-zinc-100">
            {data!.recent.map((attempt, i) => (
              <li key={`${attempt.at}-${i}`} data-testid="failed-sign-in-row" className="px-6 py-3">
                <p className="font-medium text-zinc-900">Wrong password · {attempt.device}</p>
                <p className="text-sm text-zinc-600">
                  {attempt.clientAddress ?? "Address unknown"} · <span title={formatDateTime(attempt.at)}>{formatRelative(attempt.at)}</span>
                </p>
              </li>
            ))}
          </ul>
        </>
      )}
    </Card>
  );
}
