import { createHash, randomBytes } from "node:crypto";
import { createTsaClient } from "@/server/pdf/evidence/tsa-client";
import { redactUrl } from "@/server/lib/redact-url";
import { check, reason, type TReadinessCheck, type TReadinessContext } from "./types";

const TITLE = "Time-stamping authority";

/** One real RFC 3161 request to each configured TSA (over a random digest), each answer checked as the seals' are. */
export async function checkTimeStamping(ctx: TReadinessContext): Promise<TReadinessCheck> {
  const urls = ctx.env.TSA_URLS;
  if (urls.length === 0) {
    return check(
      "time-stamping",
      TITLE,
      "warn",
      "No time-stamping authority is configured: seals carry this server's clock only (PAdES B-B), and a verifier cannot tell that a seal was made while its certificate was valid.",
      "Set TSA_URLS to one or more RFC 3161 time-stamping authorities (comma-separated, tried in order) and restart.",
      [{ label: "TSA_URLS", value: "not set" }],
    );
  }
  const facts: TReadinessCheck["facts"] = [];
  const failed: string[] = [];
  for (const url of urls) {
    const client = createTsaClient({ tsaUrls: [url], tsaTimeoutMs: ctx.env.TSA_TIMEOUT_MS, fetch: ctx.tsaFetch });
    const digest = createHash("sha256").update(randomBytes(32)).digest();
    try {
      await client.timestamp(new Uint8Array(digest), "SHA-256");
      const token = client.issued[0]!;
      facts.push({
        label: redactUrl(url),
        value: `answered: ${token.authority}, time ${token.time.toISOString()}, TSA certificate valid until ${token.tsaCertificateNotAfter.toISOString()}`,
      });
    } catch (err) {
      const shown = redactUrl(url);
      failed.push(shown);
      // The client's message names the URL; the fact's label already does.
      const why = reason(err).replace(/^no time-stamping authority answered usefully: /, "");
      facts.push({ label: shown, value: `failed: ${why.startsWith(`${shown}: `) ? why.slice(shown.length + 2) : why}` });
    }
  }
  if (failed.length === urls.length) {
    return check(
      "time-stamping",
      TITLE,
      "fail",
      `No configured time-stamping authority gave a valid time-stamp, so new seals get none (they are upgraded later, when one answers).`,
      "Check each URL in TSA_URLS (the reason is beside it), that this server may reach it, and its credentials.",
      facts,
    );
  }
  if (failed.length > 0) {
    return check(
      "time-stamping",
      TITLE,
      "warn",
      `${failed.length} of ${urls.length} time-stamping authorities failed; seals use the next one that answers.`,
      `Fix or remove ${failed.join(", ")} in TSA_URLS.`,
      facts,
    );
  }
  return check(
    "time-stamping",
    TITLE,
    "ok",
    urls.length === 1
      ? "The time-stamping authority answered with a valid time-stamp."
      : `All ${urls.length} time-stamping authorities answered with valid time-stamps.`,
    null,
    facts,
  );
}
