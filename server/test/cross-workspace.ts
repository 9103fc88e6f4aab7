/**
 * "A key of another workspace gets 404 for this resource" (spec: a resource in another workspace is 404, not
 * 403), as one call for every resource test of later issues:
 *
 *   await expectOtherWorkspaceGets404(t.db, getPackageRoute, { org, params: { packageId }, ownKey: key.value });
 *
 * It creates a sibling workspace in the SAME organisation and an Admin key bound to it (so neither the plan,
 * the permissions nor the organisation can explain the 404: only the workspace), calls the route with it and
 * expects 404 `{ error }`. With `ownKey` it first calls with the resource's own key and expects anything but
 * 404, proving the resource exists and the 404 is the workspace boundary at work.
 */
import { expect } from "vitest";
import type { Db } from "../db/client";
import type { TRouteHandler } from "../http/api-route";
import { createTestKey, createTestWorkspace, type TTestOrg } from "./factories";
import { callRoute, type TCallOptions } from "./http";

export type TCrossWorkspaceOptions = Omit<TCallOptions, "key"> & {
  org: TTestOrg;
  /** A key of the resource's own workspace: when given, it must NOT get 404 (control). */
  ownKey?: string;
  /** Role of the sibling key; Admin (every permission) by default. */
  roleId?: string;
};

export async function expectOtherWorkspaceGets404(db: Db, route: TRouteHandler, opts: TCrossWorkspaceOptions): Promise<void> {
  const { org, ownKey, roleId, ...call } = opts;
  if (ownKey) {
    const own = await callRoute(route, { ...call, key: ownKey });
    expect(own.status, "the resource's own workspace should reach it (control)").not.toBe(404);
  }
  const siblingId = await createTestWorkspace(db, org.organisationId, `sibling-${Math.random().toString(36).slice(2, 8)}`);
  const sibling = await createTestKey(db, org, { workspaceId: siblingId, roleId: roleId ?? org.roleIds.admin });
  const res = await callRoute(route, { ...call, key: sibling.value });
  expect(res.status, `a key of another workspace of the same organisation got ${res.status}`).toBe(404);
  const body = (await res.json()) as { error?: unknown };
  expect(typeof body.error).toBe("string");
}
