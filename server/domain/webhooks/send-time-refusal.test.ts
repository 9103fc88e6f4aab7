/**
 * Protects the send-time half of the SSRF defence, with WEBHOOK_ALLOW_PRIVATE_TARGETS off: a name that was
 * public at registration and answers with a private address when the delivery is sent (DNS rebinding) is
 * refused before any socket is opened, and the delivery is EXHAUSTED at once — no retries. A name that merely
 * fails to resolve is an ordinary failure and is retried. DNS is injected; nothing leaves the machine.
 */
import net from "node:net";
import tls from "node:tls";
import { afterEach, describe, expect, it, vi } from "vitest";
import { useTestDb } from "@/server/test/db";
import { deliverDueWebhooks } from "./deliver-due-webhooks";
import { setResolver } from "./resolver";
import { deliveryRow, raisePackageSent, setupEndpoint } from "./test-support/fixtures";
import { outboundConnects } from "./test-support/receiver";

const t = useTestDb();
afterEach(() => {
  setResolver(undefined);
  vi.restoreAllMocks();
});

describe("a target that turned private", () => {
  it("is EXHAUSTED on the first attempt without connecting", async () => {
    let answer = "93.184.216.34";
    setResolver(async () => [{ address: answer, family: 4 }]);
    const { ctx } = await setupEndpoint(t.db, "https://hooks.rebind.example/in");
    const [id] = (await raisePackageSent(t.db, ctx)).deliveryIds;

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
    const { ctx } = await setupEndpoint(t.db, "https://hooks.flaky.example/in");
    const [id] = (await raisePackageSent(t.db, ctx)).deliveryIds;
    resolvable = false;
    await deliverDueWebhooks(t.db, { allowPrivateTargets: false });
    expect(await deliveryRow(t.db, id!)).toMatchObject({ status: "FAILED", attempts: 1 });
  });
});
