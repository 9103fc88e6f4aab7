/**
 * The Webhooks page gives the endpoint form the server's WEBHOOK_ALLOW_PRIVATE_TARGETS, so the URL hint says
 * what registration will accept (components/webhooks/endpoint-url-hint.ts). The e2e server runs with the
 * setting on; this checks both ways, "off" (production) included: a page that passed a constant would show the
 * "accepted" hint where private addresses are refused. The hint's two texts: endpoint-url-hint.test.ts.
 */
import { isValidElement, type ReactElement, type ReactNode } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { endpointUrlHint } from "@/components/webhooks/endpoint-url-hint";
import { EndpointsDashboard } from "@/components/webhooks/endpoints-dashboard";
import { resetEnvCache } from "@/server/env";
import WebhooksPage from "./page";

// The session door (next-auth, the database) is not this test's concern: the gate lets the page through.
vi.mock("@/server/auth/session", () => ({ requireActorWhere: vi.fn(async () => ({})) }));

/** The props the page gives the endpoints dashboard (which passes `allowPrivateTargets` on to the form). */
function dashboardProps(tree: ReactNode): { allowPrivateTargets: boolean } {
  const found: ReactElement<{ allowPrivateTargets: boolean }>[] = [];
  const walk = (node: ReactNode) => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!isValidElement<{ children?: ReactNode; allowPrivateTargets: boolean }>(node)) return;
    if (node.type === EndpointsDashboard) found.push(node);
    walk(node.props.children);
  };
  walk(tree);
  expect(found).toHaveLength(1);
  return found[0]!.props;
}

async function pageWith(setting: "true" | "false") {
  process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = setting;
  resetEnvCache();
  return dashboardProps(await WebhooksPage());
}

afterEach(() => {
  process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "false";
  resetEnvCache();
});

describe("the Webhooks page's URL hint", () => {
  it("says private and loopback addresses are refused when WEBHOOK_ALLOW_PRIVATE_TARGETS is off", async () => {
    const props = await pageWith("false");
    expect(props.allowPrivateTargets).toBe(false);
    expect(endpointUrlHint(props.allowPrivateTargets)).toContain("Private and loopback addresses are refused");
  });

  it("says they are accepted when it is on", async () => {
    const props = await pageWith("true");
    expect(props.allowPrivateTargets).toBe(true);
    expect(endpointUrlHint(props.allowPrivateTargets)).toContain("private or loopback addresses such as http://localhost are accepted");
  });
});
