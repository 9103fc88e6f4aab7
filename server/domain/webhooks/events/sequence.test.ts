/**
 * Protects what docs/webhooks.md says about `sequence`: it counts per PACKAGE, not per endpoint — every event
 * of a package takes the next number whichever endpoints receive it — so an endpoint subscribed to a subset of
 * the events sees gaps by design, and the documentation must say so (and that a gap only means "re-read the
 * package"). The docs once described it as if a gap meant a missed event, which sends integrators chasing
 * losses that never happened.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { webhookDeliveries, webhookEvents } from "@/server/db/schema";
import { useTestDb } from "@/server/test/db";
import { createEndpoint } from "@/server/domain/webhooks/endpoints/create-endpoint";
import { recordEvent } from "./record-event";
import { packageSent, setupEndpoint } from "@/server/domain/webhooks/test-support/fixtures";

const t = useTestDb();
const URL_A = "https://93.184.216.34/a";

async function sequencesSeenBy(endpointId: string): Promise<[string, number | null][]> {
  const rows = await t.db
    .select({ packageId: webhookEvents.packageId, sequence: webhookEvents.sequence })
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(eq(webhookDeliveries.endpointId, endpointId))
    .orderBy(asc(webhookEvents.packageId), asc(webhookEvents.sequence));
  return rows.map((r) => [r.packageId!, r.sequence]);
}

describe("the sequence field", () => {
  it("counts per package across endpoints, so a subset subscriber sees gaps", async () => {
    const { actor, endpoint: everything } = await setupEndpoint(t.db, URL_A);
    const packagesOnly = await createEndpoint(t.db, actor, { url: URL_A, events: ["PACKAGE_SENT", "PACKAGE_COMPLETED"] });
    const raise = (fn: Parameters<typeof t.db.transaction>[0]) => t.db.transaction(fn);
    const base = { organisationId: actor.organisation.id, workspaceId: actor.workspace.id };
    const session = {
      packageId: "pkg_a",
      sessionId: "ses_1",
      recipientName: null,
      recipientEmail: "r@example.com",
      packageTitle: "Lease renewal",
      metadata: {},
    };
    await raise((tx) => recordEvent(tx, { ...base, event: "PACKAGE_SENT", data: packageSent("pkg_a") }));
    await raise((tx) => recordEvent(tx, { ...base, event: "SESSION_SENT", data: session }));
    await raise((tx) => recordEvent(tx, { ...base, event: "PACKAGE_SENT", data: packageSent("pkg_b") }));
    await raise((tx) => recordEvent(tx, { ...base, event: "SESSION_COMPLETED", data: session }));
    await raise((tx) =>
      recordEvent(tx, {
        ...base,
        event: "PACKAGE_COMPLETED",
        data: { packageId: "pkg_a", packageTitle: "Lease renewal", completedAt: "2030-01-01T00:00:00.000Z", metadata: {} },
      }),
    );

    expect(await sequencesSeenBy(everything.id)).toEqual([
      ["pkg_a", 1],
      ["pkg_a", 2],
      ["pkg_a", 3],
      ["pkg_a", 4],
      ["pkg_b", 1],
    ]);
    expect(await sequencesSeenBy(packagesOnly.id)).toEqual([
      ["pkg_a", 1],
      ["pkg_a", 4],
      ["pkg_b", 1],
    ]);
  });

  it("is documented as per package, with gaps for subset subscribers meaning only 're-read the package'", () => {
    const doc = readFileSync(path.resolve("docs/webhooks.md"), "utf8");
    const row = doc.split("\n").find((line) => line.startsWith("| `sequence` |")) ?? "";
    expect(row).toMatch(/per package, not per endpoint/);
    expect(row).toMatch(/subscribed to a subset of the events therefore sees gaps/);
    expect(row).toMatch(/re-read the package/);
  });
});
