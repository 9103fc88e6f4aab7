/**
 * Protects the send-time half of the SSRF defence, with WEBHOOK_ALLOW_PRIVATE_TARGETS off: a name that was
 * public at registration and answers with a private address when the delivery is sent (DNS rebinding) is
 * refused before any socket is opened, and the delivery is EXHAUSTED at once — no retries. A name that merely
 * fails to resolve is an ordinary failure and is retried, and so is one whose lookup outlasts the attempt's
 * 10 s deadline (the deadline is injected and fired by the test). DNS is injected; nothing leaves the machine.
 */
import net from "node:net";
import tls from "node:tls";
import { afterEach, describe, expect, it, vi } from "vitest";
import { useTestDb } from "@/server/test/db";
import { deliverDueWebhooks } from "./deliver-due-webhooks";
import { setResolver } from "./resolver";
import { deliveryRow, raisePackageSent, setupEndpoint } from "@/server/domain/webhooks/test-support/fixtures";
import { outboundConnects } from "@/server/domain/webhooks/test-support/receiver";

const t = useTestDb();
afterEach(() => {
  setResolver(undefined);
  vi.restoreAllMocks();
});

describe("a target that turned private", () => {
  it("is EXHAUSTED on the first attempt without connecting", async () => {
    let answer = "93.184.216.34";
    setResolver(async () => [{ address: answer, family: 4 }]);
    const { actor } = await setupEndpoint(t.db, "https://hooks.rebind.example/in");
    const [id] = (await raisePackageSent(t.db, actor)).deliveryIds;

    answer = "169.254.169.254";
    const netConnect = vi.spyOn(net.Socket.prototype, "connect");
    const tlsConnect = vi.spyOn(tls, "connect");
    const [result] = await deliverDueWebhooks(t.db, { allowPrivateTargets: false });
    expect(result!.outcome).toMatchObject({ kind: "recorded", status: "EXHAUSTED" });
    expect(outboundConnects(netConnect.mock.calls)).toEqual([]);
    expect(tlsConnect).not.toHaveBeenCalled();
    const row = await deliveryRow(t.db, id!);
    expect(row).toMatchObject({ status: "EXHAUSTED", attempts: 1 });
    expect(row.lastError).toMatch(/private/);
  });

  it("retries a name that does not resolve at send time", async () => {
    let resolvable = true;
    setResolver(async (host) => {
      if (!resolvable) throw Object.assign(new Error(`ENOTFOUND ${host}`), { code: "ENOTFOUND" });
      return [{ address: "93.184.216.34", family: 4 }];
    });
    const { actor } = await setupEndpoint(t.db, "https://hooks.flaky.example/in");
    const [id] = (await raisePackageSent(t.db, actor)).deliveryIds;
    resolvable = false;
    await deliverDueWebhooks(t.db, { allowPrivateTargets: false });
    expect(await deliveryRow(t.db, id!)).toMatchObject({ status: "FAILED", attempts: 1 });
  });

  // Regression: the send-time DNS lookup had no time limit, so a resolver that never answered held the
  // delivery (and its worker slot) forever. It now runs under the attempt's one 10 s deadline — injected and
  // fired here — and a lookup cut short is an ordinary, retried failure; nothing is connected.
  it("abandons a DNS lookup that never answers when the attempt's deadline fires", async () => {
    let asked!: () => void;
    const lookupStarted = new Promise<void>((resolve) => (asked = resolve));
    let hang = false;
    setResolver(async () => {
      if (!hang) return [{ address: "93.184.216.34", family: 4 }];
      asked();
      return new Promise(() => {}); // never answers
    });
    const { actor } = await setupEndpoint(t.db, "https://hooks.silent.example/in");
    const [id] = (await raisePackageSent(t.db, actor)).deliveryIds;
    hang = true;
    const deadline = new AbortController();
    const requested: number[] = [];
    const netConnect = vi.spyOn(net.Socket.prototype, "connect");
    const delivering = deliverDueWebhooks(t.db, {
      allowPrivateTargets: false,
      deadline: (ms) => {
        requested.push(ms);
        return deadline.signal;
      },
    });
    await lookupStarted;
    deadline.abort();
    const [result] = await delivering;
    expect(requested).toEqual([10_000]);
    expect(result!.outcome).toMatchObject({ kind: "recorded", status: "FAILED" });
    expect(outboundConnects(netConnect.mock.calls)).toEqual([]);
    expect(await deliveryRow(t.db, id!)).toMatchObject({ status: "FAILED", attempts: 1, lastError: "DNS lookup did not finish within 10 s" });
  }, 10_000);
});
