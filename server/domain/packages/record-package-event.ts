import type { Db } from "@/server/db/client";
import type { TEventData } from "@/server/domain/webhooks/events/event-catalogue";
import { recordEvent } from "@/server/domain/webhooks/events/record-event";
import type { TPackageRow } from "./find-package";

type TPackageEvent =
  | "PACKAGE_SENT"
  | "PACKAGE_COMPLETED"
  | "PACKAGE_DECLINED"
  | "PACKAGE_VOIDED"
  | "PACKAGE_EXPIRED"
  | "PACKAGE_ON_HOLD"
  | "PACKAGE_RESUMED"
  | "PACKAGE_SCHEDULED"
  | "PACKAGE_DELETED";

type TExtra<E extends TPackageEvent> = Omit<TEventData<E>, "packageId" | "packageTitle" | "metadata">;

/** A package event in the outbox, in the caller's transaction, with the fields every package event carries. */
export async function recordPackageEvent<E extends TPackageEvent>(tx: Db, pkg: TPackageRow, event: E, extra: TExtra<E>): Promise<void> {
  const data = { packageId: pkg.id, packageTitle: pkg.title, metadata: pkg.metadata, ...extra } as TEventData<E>;
  await recordEvent(tx, { organisationId: pkg.organisationId, workspaceId: pkg.workspaceId, event, data });
}
