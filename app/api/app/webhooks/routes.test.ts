/**
 * Access to the app's webhook routes, through the real handlers: a member whose role lacks canManageWebhooks
 * gets 403 on every one of them (owners always pass, as does a role with the permission); the workspace
 * comes from the switcher's cookie, validated against the organisation (another organisation's workspace id
 * falls back to the default); and another workspace's endpoint is 404, not 403. Only the session lookup is
 * replaced (no browser, no next-auth); the database is real.
 */
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { TActor } from "@/server/domain/access/actor";
import { createEndpoint } from "@/server/domain/webhooks/endpoints/create-endpoint";
import { WORKSPACE_COOKIE } from "@/server/auth/workspace-cookie";
import { createTestMember, ownerActor } from "@/server/test/actors";
import { useTestDb } from "@/server/test/db";
import { createTestOrg, createTestRole, createTestWorkspace } from "@/server/test/factories";
import * as list from "./route";
import * as one from "./[endpointId]/route";
import * as chart from "./[endpointId]/chart/route";
import * as log from "./[endpointId]/deliveries/route";
import * as detail from "./[endpointId]/deliveries/[deliveryId]/route";
import * as check from "./[endpointId]/deliveries/[deliveryId]/check-signature/route";
import * as replay from "./[endpointId]/deliveries/replay/route";
import * as rotate from "./[endpointId]/rotate-secret/route";
import * as testEvents from "./[endpointId]/test-events/route";
import * as overview from "./overview/route";

const session = vi.hoisted(() => ({ actor: null as TActor | null }));
vi.mock("@/server/auth/session", () => ({
  getSessionIdentity: async () => (session.actor ? { userId: session.actor.user.id, organisationId: session.actor.organisation.id } : null),
}));

const t = useTestDb();
beforeEach(() => {
  session.actor = null;
});

type THandler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

async function call(handler: THandler, opts: { method?: string; params?: Record<string, string>; body?: unknown; workspaceId?: string } = {}) {
  // What the app's own page sends with a write (server/auth/same-origin-write.ts).
  const headers = new Headers({ "sec-fetch-site": "same-origin" });
  if (opts.body !== undefined) headers.set("content-type", "application/json");
  if (opts.workspaceId) headers.set("cookie", `other=1; ${WORKSPACE_COOKIE}=${opts.workspaceId}`);
  const req = new Request("http://localhost:3000/api/app/webhooks/x", {
    method: opts.method ?? "GET",
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const res = await handler(req, { params: Promise.resolve(opts.params ?? {}) });
  return { status: res.status, body: (await res.json()) as { data?: unknown; error?: string } };
}

async function seed() {
  const org = await createTestOrg(t.db);
  const scope = ownerActor(org);
  return { org, scope };
}

describe("app webhook routes", () => {
  it("answer 403 to a member whose role lacks canManageWebhooks, on every route", async () => {
    const org = await createTestOrg(t.db);
    session.actor = await createTestMember(t.db, org, org.roleIds.sender);
    const p = { endpointId: "whep_x", deliveryId: "whd_x" };
    const calls: [THandler, { method?: string; body?: unknown }][] = [
      [list.GET, {}],
      [list.POST, { method: "POST", body: { url: "https://example.com/h", events: ["PACKAGE_SENT"] } }],
      [one.GET, {}],
      [one.PATCH, { method: "PATCH", body: { enabled: false } }],
      [one.DELETE, { method: "DELETE" }],
      [rotate.POST, { method: "POST" }],
      [chart.GET, {}],
      [log.GET, {}],
      [detail.GET, {}],
      [check.POST, { method: "POST", body: { digest: "0".repeat(64) } }],
      [replay.POST, { method: "POST", body: { deliveryId: "whd_x" } }],
      [testEvents.POST, { method: "POST", body: { event: "PACKAGE_SENT" } }],
      [overview.GET, {}],
    ];
    for (const [handler, opts] of calls) {
      const res = await call(handler, { ...opts, params: p });
      expect(res, `${opts.method ?? "GET"} ${handler.name}`).toEqual({ status: 403, body: { error: "Missing permission: canManageWebhooks" } });
    }
  });

  it("let an owner and a member whose role has canManageWebhooks in; nobody signed in gets 401", async () => {
    const org = await createTestOrg(t.db);
    expect((await call(overview.GET)).status).toBe(401);
    session.actor = ownerActor(org);
    expect((await call(list.GET)).status).toBe(200);
    const roleId = await createTestRole(t.db, org.organisationId, { canManageWebhooks: true, apiAccess: false });
    session.actor = await createTestMember(t.db, org, roleId);
    const res = await call(list.GET);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ workspace: { id: org.workspaceId }, endpoints: [] });
  });

  it("act in the cookie's workspace of the organisation; another workspace's endpoint is 404", async () => {
    const { org, scope } = await seed();
    session.actor = ownerActor(org);
    const siblingId = await createTestWorkspace(t.db, org.organisationId, "sibling");
    const siblingScope = ownerActor(org, { id: siblingId });
    const ep = await createEndpoint(t.db, siblingScope, { url: "http://127.0.0.1:9/never" }).catch((e: unknown) => e);
    // Registration vets the URL as the API does: loopback is refused here (the switch is off in this file).
    expect(ep).toMatchObject({ status: 422, details: { url: [expect.any(String)] } });

    const created = await call(list.POST, { method: "POST", workspaceId: siblingId, body: { url: "https://93.184.215.14/hook", events: ["PACKAGE_SENT"] } });
    expect(created.status).toBe(201);
    const endpointId = (created.body.data as { id: string }).id;

    expect((await call(one.GET, { params: { endpointId }, workspaceId: siblingId })).status).toBe(200);
    // Without the cookie the default workspace is current: the sibling's endpoint does not exist there.
    for (const handler of [one.GET, chart.GET, log.GET]) expect((await call(handler, { params: { endpointId } })).status).toBe(404);
    expect((await call(testEvents.POST, { method: "POST", params: { endpointId }, body: { event: "PACKAGE_SENT" } })).status).toBe(404);
    expect((await call(one.DELETE, { method: "DELETE", params: { endpointId } })).status).toBe(404);

    // A workspace id of ANOTHER organisation in the cookie is ignored: the member stays in their default workspace.
    const stranger = await createTestOrg(t.db, "Stranger");
    const listed = await call(list.GET, { workspaceId: stranger.workspaceId });
    expect(listed.body.data).toMatchObject({ workspace: { id: scope.workspace.id } });
  });
});
