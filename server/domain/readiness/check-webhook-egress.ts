import { count, eq } from "drizzle-orm";
import { webhookEndpoints } from "@/server/db/schema";
import { isPublicAddress } from "@/server/domain/webhooks/delivery/is-public-address";
import { vetTarget } from "@/server/domain/webhooks/delivery/vet-target";
import { check, reason, type TReadinessCheck, type TReadinessContext } from "./types";

const TITLE = "Webhook egress";
/** Targets the private-address rule must refuse, whatever DNS says (literal addresses are not looked up). */
const MUST_REFUSE = ["https://127.0.0.1/", "https://169.254.169.254/latest/meta-data", "https://[::1]/", "https://10.0.0.1/"];

async function enabledEndpoints(ctx: TReadinessContext): Promise<number | null> {
  if (!ctx.db) return null;
  try {
    const [row] = await ctx.db.select({ n: count() }).from(webhookEndpoints).where(eq(webhookEndpoints.enabled, true));
    return row?.n ?? 0;
  } catch {
    return null;
  }
}

/**
 * Can webhooks leave: this server resolves public host names (through the same injectable lookup the deliveries
 * use), and the private-address rule (vet-target.ts) is on and refuses loopback, link-local and private targets.
 * Nothing is connected to.
 */
export async function checkWebhookEgress(ctx: TReadinessContext): Promise<TReadinessCheck> {
  const allowPrivate = ctx.env.WEBHOOK_ALLOW_PRIVATE_TARGETS;
  // READINESS_DNS_PROBE_HOST, default example.com (IANA's reserved name, public addresses): looked up, never contacted.
  const probe = ctx.env.READINESS_DNS_PROBE_HOST;
  const endpoints = await enabledEndpoints(ctx);
  const facts = [
    { label: "Private-address rule", value: allowPrivate ? "off (WEBHOOK_ALLOW_PRIVATE_TARGETS=true)" : "on" },
    ...(endpoints === null ? [] : [{ label: "Enabled endpoints", value: String(endpoints) }]),
  ];
  if (!allowPrivate) {
    for (const target of MUST_REFUSE) {
      const vetted = await vetTarget(target, { allowPrivate: false });
      if (vetted.ok) {
        return check(
          "webhook-egress",
          TITLE,
          "fail",
          `The private-address rule let ${target} through.`,
          "This is a bug: report it, and pause your webhook endpoints meanwhile.",
          facts,
        );
      }
    }
  }
  let addresses: string[];
  try {
    addresses = (await ctx.resolver(probe)).map((a) => a.address);
    if (addresses.length === 0) throw new Error("no address");
  } catch (err) {
    facts.push({ label: `DNS lookup of ${probe}`, value: `failed: ${reason(err)}` });
    return check(
      "webhook-egress",
      TITLE,
      endpoints ? "fail" : "warn",
      `This server cannot resolve public host names, so every webhook delivery fails ("Host does not resolve").${endpoints ? "" : " No endpoint is enabled yet."}`,
      "Check the DNS resolver of this server or container (/etc/resolv.conf) and that it may reach it.",
      facts,
    );
  }
  facts.push({ label: `DNS lookup of ${probe}`, value: addresses.join(", ") });
  if (!allowPrivate && !addresses.every(isPublicAddress)) {
    return check(
      "webhook-egress",
      TITLE,
      "warn",
      `The DNS resolver answers a public name with a private address (${addresses.join(", ")}): deliveries to hosts it answers that way are refused.`,
      "Use a resolver that returns public addresses for public names (a filtering or split-horizon DNS rewrites them).",
      facts,
    );
  }
  if (allowPrivate) {
    return check(
      "webhook-egress",
      TITLE,
      "warn",
      "Host names resolve, but webhooks may reach private, loopback and link-local addresses (WEBHOOK_ALLOW_PRIVATE_TARGETS=true): anyone who registers an endpoint can make this server call your internal network.",
      "Development only: unset WEBHOOK_ALLOW_PRIVATE_TARGETS in production.",
      facts,
    );
  }
  return check("webhook-egress", TITLE, "ok", "Host names resolve, and webhooks are refused any private, loopback or link-local address.", null, facts);
}
