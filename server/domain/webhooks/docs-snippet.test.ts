/**
 * Protects the documentation: the Node verification snippet published in docs/webhooks.md is extracted and
 * executed here against a real delivery (raw bytes and headers as a local receiver got them), so the snippet
 * integrators copy cannot silently stop working. Also checks the documented retry table matches the code.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestDb } from "@/server/test/db";
import { deliverDueWebhooks } from "@/server/domain/webhooks/delivery/deliver-due-webhooks";
import { scheduledDelayMs } from "@/server/domain/webhooks/delivery/retry-schedule";
import { rotateEndpointSecret } from "@/server/domain/webhooks/endpoints/rotate-endpoint-secret";
import { raisePackageSent, setupEndpoint } from "./test-support/fixtures";
import { useLocalReceiver } from "./test-support/use-local-receiver";

type TVerify = (raw: string | Buffer, headers: Record<string, string>, secret: string) => boolean;

const t = useTestDb();
const doc = readFileSync(path.resolve("docs/webhooks.md"), "utf8");
const rx = useLocalReceiver();
let dir: string;
let verify: TVerify;

beforeAll(async () => {
  const snippet = /```js\n(\/\/ verify-foliosign\.mjs[\s\S]*?)```/.exec(doc)?.[1];
  if (!snippet) throw new Error("docs/webhooks.md lost its verify-foliosign.mjs snippet");
  dir = mkdtempSync(path.join(os.tmpdir(), "foliosign-doc-"));
  writeFileSync(path.join(dir, "verify-foliosign.mjs"), snippet);
  ({ verifyFoliosignSignature: verify } = (await import(pathToFileURL(path.join(dir, "verify-foliosign.mjs")).href)) as {
    verifyFoliosignSignature: TVerify;
  });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("docs/webhooks.md", () => {
  it("its verification snippet accepts our deliveries and rejects tampered ones", async () => {
    const { actor, endpoint } = await setupEndpoint(t.db, rx.url);
    await raisePackageSent(t.db, actor, "pkg_1");
    await deliverDueWebhooks(t.db);
    const rotated = await rotateEndpointSecret(t.db, actor, { endpointId: endpoint.id });
    await raisePackageSent(t.db, actor, "pkg_2");
    await deliverDueWebhooks(t.db);

    const [first, second] = rx.received as [(typeof rx.received)[0], (typeof rx.received)[0]];
    const h1 = first.headers as Record<string, string>;
    const h2 = second.headers as Record<string, string>;
    expect(verify(first.body, h1, endpoint.secret)).toBe(true);
    expect(verify(Buffer.from(first.body), h1, endpoint.secret)).toBe(true);
    expect(verify(first.body.replace("pkg_1", "pkg_9"), h1, endpoint.secret)).toBe(false);
    expect(verify(first.body, h1, rotated.secret)).toBe(false);
    // During the rotation overlap both secrets verify.
    expect(verify(second.body, h2, rotated.secret)).toBe(true);
    expect(verify(second.body, h2, endpoint.secret)).toBe(true);
    // A replay from long ago is refused by the tolerance.
    expect(verify(first.body, { ...h1, "x-foliosign-timestamp": "1000" }, endpoint.secret)).toBe(false);
  });

  it("documents the retry table the code follows", () => {
    for (let attempt = 2; attempt <= 9; attempt++) {
      const minutes = scheduledDelayMs(attempt - 1) / 60_000;
      expect(doc).toMatch(new RegExp(`\\| ${attempt} \\| ${minutes} minutes? \\|`));
    }
  });
});
