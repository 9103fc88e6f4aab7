import type { Db } from "@/server/db/client";
import { logger } from "@/server/lib/logger";
import { selfTest, type TSelfTestResult } from "@/server/pdf/self-test";
import { getSigningIdentity } from "./signing-identity";

/**
 * At start, seal and verify a one-page PDF with this instance's identity (and load the fonts), and say so in
 * the log: a machine that cannot seal learns it now, not when the first package completes. It never stops the
 * start: packages can still be sent; sealing retries later and shows its failure to the owner.
 */
export async function checkSealingAtStart(db: Db): Promise<TSelfTestResult | null> {
  try {
    const result = await selfTest(await getSigningIdentity(db));
    const summary = {
      source: result.source,
      subject: result.subject,
      fingerprintSha256: result.fingerprintSha256,
      notAfter: result.notAfter,
      ms: Math.round(result.ms),
    };
    if (result.ok) logger().info(summary, "sealing self-test passed: a one-page PDF was signed and verified, and a changed byte was detected");
    else logger().error({ ...summary, result }, "sealing self-test FAILED: completed packages cannot be sealed until this is fixed");
    return result;
  } catch (err) {
    logger().error({ err }, "sealing self-test FAILED: the signing identity could not be loaded");
    return null;
  }
}
