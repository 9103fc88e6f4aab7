import type { Db } from "@/server/db/client";
import { openSession } from "./open-session";
import { closedReason } from "./closed-reason";
import { findSigningSession } from "./find-signing-session";
import type { TSigningRequest } from "./schemas";

/**
 * The page was opened in a browser (the page posts this once it runs, so a mail scanner that only fetches the
 * link does not count as an open): the first open raises SESSION_OPENED; later ones change nothing.
 */
export async function openSigning(db: Db, request: TSigningRequest): Promise<{ opened: boolean }> {
  const { pkg, session, recipient } = await findSigningSession(db, request);
  if (closedReason(pkg, session) || session.status !== "SENT") return { opened: false };
  const { opened } = await openSession(db, recipient);
  return { opened };
}
