/**
 * The claim's answer: each claimed delivery with what sending it needs — its event's body, its endpoint's URL and
 * secrets — while the statement carries each event's body and each endpoint's row once, however many of the
 * claim's deliveries share them (a fan-out's deliveries share their event; an endpoint's claims their endpoint).
 */
import { describe, expect, it } from "vitest";
import { webhookEndpoints, webhookEvents } from "@/server/db/schema";
import { transactionInOneTrip } from "@/server/db/driver";
import { useTestDb } from "@/server/test/db";
import { createEndpoint } from "@/server/domain/webhooks/endpoints/create-endpoint";
import { deliveryRow, raisePackageSent, setupEndpoint } from "@/server/domain/webhooks/test-support/fixtures";
import { claimDeliveries, claimsFromRows, claimStatements, setClaimRound } from "./claim-deliveries";

const t = useTestDb();

async function twoEventsToTwoEndpoints() {
  const { actor, endpoint: a } = await setupEndpoint(t.db, "https://93.184.216.34/a");
  const b = await createEndpoint(t.db, actor, { url: "https://93.184.216.34/b" });
  const first = await raisePackageSent(t.db, actor, "pkg_1");
  const second = await raisePackageSent(t.db, actor, "pkg_2");
  return { a, b, deliveries: [...first.deliveryIds, ...second.deliveryIds] };
}

describe("a claim's answer", () => {
  it("gives every claimed delivery its own event's body and its own endpoint's URL and secrets", async () => {
    setClaimRound();
    const { a, b, deliveries } = await twoEventsToTwoEndpoints();
    const claims = await claimDeliveries(t.db, { limit: 10 });
    expect(claims.map((c) => c.id).sort()).toEqual([...deliveries].sort());
    const events = await t.db.select().from(webhookEvents);
    const endpoints = await t.db.select().from(webhookEndpoints);
    for (const claim of claims) {
      const { eventId } = await deliveryRow(t.db, claim.id);
      const event = events.find((e) => e.id === eventId)!;
      const endpoint = endpoints.find((e) => e.id === claim.endpointId)!;
      expect(claim.body).toBe(event.body);
      expect(claim).toMatchObject({
        url: endpoint.url,
        secretEncrypted: endpoint.secretEncrypted,
        previousSecretEncrypted: null,
        previousSecretExpiresAt: null,
      });
    }
    // Two bodies, each to both endpoints.
    expect(new Set(claims.map((c) => c.body)).size).toBe(2);
    expect(claims.filter((c) => c.endpointId === a.id).map((c) => c.url)).toEqual(["https://93.184.216.34/a", "https://93.184.216.34/a"]);
    expect(claims.filter((c) => c.endpointId === b.id).map((c) => c.url)).toEqual(["https://93.184.216.34/b", "https://93.184.216.34/b"]);
  });

  it("carries each event's body and each endpoint's row once, not once per delivery", async () => {
    setClaimRound();
    const { a, b } = await twoEventsToTwoEndpoints();
    const statements = claimStatements({ limit: 10 }, new Date());
    const [, rows] = (await transactionInOneTrip(t.db, [statements.lock, statements.claim])) as [
      unknown,
      { kind: string; body: string | null; url: string | null; endpoint_id: string | null }[],
    ];
    const kinds = rows.map((r) => r.kind).sort();
    expect(kinds).toEqual(["claim", "claim", "claim", "claim", "endpoint", "endpoint", "event", "event", "round"]);
    expect(rows.filter((r) => r.kind === "claim").every((r) => r.body === null && r.url === null)).toBe(true);
    expect(
      rows
        .filter((r) => r.kind === "endpoint")
        .map((r) => r.endpoint_id)
        .sort(),
    ).toEqual([a.id, b.id].sort());
    // And they make the four claims.
    expect(claimsFromRows(rows, statements.leaseEndsAt)).toHaveLength(4);
  });

  it("leaves out a claim whose event or endpoint row is missing from the answer, as the inner joins did", () => {
    const claim = (id: string, event: string, endpoint: string) => ({
      kind: "claim",
      id,
      claim_token: `t_${id}`,
      attempts: 1,
      endpoint_id: endpoint,
      event_id: event,
      event: "PACKAGE_SENT",
      due_at: "2030-01-01T00:00:00.000Z",
    });
    const rows = [
      claim("d1", "ev1", "ep1"),
      claim("d2", "ev2", "ep1"),
      claim("d3", "ev1", "ep2"),
      { kind: "event", event_id: "ev1", body: "{}" },
      {
        kind: "endpoint",
        endpoint_id: "ep1",
        url: "https://93.184.216.34/a",
        secret_encrypted: "x",
        previous_secret_encrypted: null,
        previous_secret_expires_at: null,
      },
      { kind: "round", round_after: "" },
    ];
    expect(claimsFromRows(rows, new Date())!.map((c) => c.id)).toEqual(["d1"]);
  });
});
