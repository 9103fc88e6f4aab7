/** Shared set-up for webhook tests: an organisation, an endpoint through the real domain function, sample events. */
import { workspaceActor } from "@/server/test/actors";
import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { webhookDeliveries, webhookEndpoints } from "@/server/db/schema";
import { createTestOrg } from "@/server/test/factories";
import { createEndpoint } from "@/server/domain/webhooks/endpoints/create-endpoint";
import type { TActor } from "@/server/domain/access/actor";
import type { TEventData, TEventName } from "@/server/domain/webhooks/events/event-catalogue";
import { recordEvent } from "@/server/domain/webhooks/events/record-event";

export async function setupEndpoint(db: Db, url: string, opts: { events?: TEventName[]; name?: string } = {}) {
  const org = await createTestOrg(db, opts.name ?? "Acme");
  const actor: TActor = workspaceActor(org.organisationId, org.workspaceId);
  const endpoint = await createEndpoint(db, actor, { url, events: opts.events });
  return { org, actor, endpoint };
}

export function packageSent(packageId = "pkg_1"): TEventData<"PACKAGE_SENT"> {
  return { packageId, packageTitle: "Lease renewal", signerCount: 2, sessionsSent: 1, metadata: { contract: "C-42" } };
}

export async function raisePackageSent(db: Db, actor: TActor, packageId = "pkg_1") {
  return db.transaction((tx) =>
    recordEvent(tx, { organisationId: actor.organisation.id, workspaceId: actor.workspace.id, event: "PACKAGE_SENT", data: packageSent(packageId) }),
  );
}

export async function deliveryRow(db: Db, id: string) {
  const [row] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
  if (!row) throw new Error(`no delivery ${id}`);
  return row;
}

export async function endpointRow(db: Db, id: string) {
  const [row] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
  if (!row) throw new Error(`no endpoint ${id}`);
  return row;
}
