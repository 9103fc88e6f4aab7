import type { Db } from "@/server/db/client";
import type { recipientSessions } from "@/server/db/schema";
import type { TEventData } from "@/server/domain/webhooks/events/event-catalogue";
import { recordEvent } from "@/server/domain/webhooks/events/record-event";
import type { TPackageRow } from "./find-package";

type TSessionEvent = "SESSION_SENT" | "SESSION_OPENED" | "SESSION_COMPLETED" | "SESSION_DECLINED" | "SESSION_REMINDED" | "SESSION_CANCELLED";
type TSessionRow = Pick<typeof recipientSessions.$inferSelect, "id" | "email" | "name">;
type TExtra<E extends TSessionEvent> = Omit<TEventData<E>, "packageId" | "sessionId" | "recipientName" | "recipientEmail" | "metadata" | "packageTitle">;

/**
 * A session event in the outbox, in the caller's transaction. `packageTitle` is passed to every event; the
 * catalogue drops it from SESSION_OPENED, whose payload has none.
 */
export async function recordSessionEvent<E extends TSessionEvent>(tx: Db, pkg: TPackageRow, session: TSessionRow, event: E, extra: TExtra<E>): Promise<void> {
  const data = {
    packageId: pkg.id,
    sessionId: session.id,
    recipientName: session.name,
    recipientEmail: session.email,
    metadata: pkg.metadata,
    packageTitle: pkg.title,
    ...extra,
  } as TEventData<E>;
  await recordEvent(tx, { organisationId: pkg.organisationId, workspaceId: pkg.workspaceId, event, data });
}
