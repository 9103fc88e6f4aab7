/** Sessions idle past their lifetime are over already (session-liveness.ts); this deletes their rows. */
import { memberSessions } from "@/server/db/schema";
import { definePruneJob } from "@/server/lib/prune-job";
import { MEMBER_SESSION_LIMITS } from "./limits";

export function memberSessionJobs() {
  return {
    pruneIdle: definePruneJob({
      name: "member-sessions-prune-idle",
      everyMs: 60 * 60_000,
      table: memberSessions,
      id: memberSessions.id,
      time: memberSessions.lastSeenAt,
      cutoff: (at) => new Date(at.getTime() - MEMBER_SESSION_LIMITS.idleMs),
    }),
  };
}
