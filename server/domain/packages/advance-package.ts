import { asc, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { recipientSessions } from "@/server/db/schema";
import type { TPackageRow } from "./find-package";
import { finishPackage } from "./finish-package";
import { inviteSession } from "./invite-session";

/**
 * After a session finished or was removed from an IN_PROGRESS package: when every remaining recipient has
 * completed, the package completes; in a sequential package with nobody's turn open, the next recipient
 * (lowest position still PENDING) is invited. Parallel packages invite everyone at send, so nothing to do.
 */
export async function advancePackage(tx: Db, pkg: TPackageRow, at: Date): Promise<TPackageRow> {
  if (pkg.status !== "IN_PROGRESS") return pkg;
  const sessions = await tx.select().from(recipientSessions).where(eq(recipientSessions.packageId, pkg.id)).orderBy(asc(recipientSessions.position));
  if (sessions.length > 0 && sessions.every((s) => s.status === "COMPLETED")) return finishPackage(tx, pkg, at);
  const anyOpen = sessions.some((s) => s.status === "SENT" || s.status === "OPENED");
  const next = sessions.find((s) => s.status === "PENDING");
  if (!anyOpen && next) await inviteSession(tx, pkg, next, at);
  return pkg;
}
