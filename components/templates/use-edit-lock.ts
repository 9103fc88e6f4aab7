"use client";

import { useEffect, useRef } from "react";
import { lockUrl, useReleaseLock, useTakeLock } from "./query";

/** The lock is a 2-minute lease: renewed every minute, so one missed renewal does not lose it. */
const RENEW_MS = 60_000;

/**
 * Takes the template's edit lock while the editor is open, renews it every minute, and releases it on leave —
 * on unmount (navigating within the app) and on pagehide (closing the tab, reloading) with a keepalive request
 * that outlives the page. Who holds it is read from the template (`lock`), which these requests refresh.
 */
export function useEditLock(templateId: string, enabled: boolean) {
  const take = useTakeLock(templateId);
  const release = useReleaseLock(templateId);
  const takeRef = useRef(take.mutate);
  useEffect(() => {
    takeRef.current = take.mutate;
  }, [take.mutate]);

  useEffect(() => {
    if (!enabled) return;
    takeRef.current();
    const renew = setInterval(() => takeRef.current(), RENEW_MS);
    const leave = () => releaseOnLeave(templateId);
    window.addEventListener("pagehide", leave);
    return () => {
      clearInterval(renew);
      window.removeEventListener("pagehide", leave);
      leave();
    };
  }, [templateId, enabled]);

  return {
    /** Why the lock could not be taken (409 names the holder), if it could not. */
    error: take.error,
    taking: take.isPending,
    retake: () => take.mutate(),
    /** An owner breaks another member's lock, then takes it. */
    breakLock: () => release.mutate(true, { onSuccess: () => take.mutate() }),
    breaking: release.isPending,
    breakError: release.error,
  };
}

/**
 * `sendBeacon` can only POST, and the lock is released with DELETE: a keepalive fetch is sent even as the page
 * goes away. Releasing a lock one does not hold is harmless (the server only releases one's own without force).
 */
function releaseOnLeave(templateId: string) {
  void fetch(lockUrl(templateId), { method: "DELETE", keepalive: true, credentials: "same-origin", headers: { accept: "application/json" } }).catch(
    () => undefined,
  );
}
