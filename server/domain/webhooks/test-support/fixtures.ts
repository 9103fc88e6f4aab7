/** Shared set-up for webhook tests: an organisation, an endpoint through the real domain function, sample events. */
import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { webhookDeliveries, webhookEndpoints } from "@/server/db/schema";
import { createTestOrg } from "@/server/test/factories";
import { createEndpoint } from "../create-endpoint";
import type { TWebhookCtx } from "../endpoint-view";
import type { TEventData, TEventName } from "../event-catalogue";
import { recordEvent } from "../record-event";

export async function setupEndpoint(db: Db, url: string, opts: { events?: TEventName[]; name?: string } = {}) {
  const org = await createTestOrg(db, opts.name ?? "Acme");
  const ctx: TWebhookCtx = { organisation: { id: org.organisationId }, workspace: { id: org.workspaceId } };
  const endpoint = await createEndpoint(db, ctx, { url, events: opts.events });
  return { org, ctx, endpoint };
}

export function packageSent(packageId = "pkg_1"): TEventData<"PACKAGE_SENT"> {
  return { packageId, packageTitle: "Lease renewal", signerCount: 2, sessionsSent: 1, metadata: { contract: "C-42" } };
}

export async function raisePackageSent(db: Db, ctx: TWebhookCtx, packageId = "pkg_1") {
  return db.transaction((tx) =>
    recordEvent(tx, { organisationId: ctx.organisation.id, workspaceId: ctx.workspace.id, event: "PACKAGE_SENT", data: packageSent(packageId) }),
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
