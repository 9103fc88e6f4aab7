/**
 * The plan (operator-set, member-readable) and the IP allowlist (owner-set, validated strictly entry by entry
 * with `entries.<index>` details), and that both take effect on the very next API request.
 */
import { describe, expect, it } from "vitest";
import { GET as getAccount } from "@/app/api/v1/account/route";
import { assertGates } from "@/server/domain/access/gates";
import type { TOperation } from "@/server/domain/operation";
import { AppError } from "@/server/lib/errors";
import { createTestMember, ownerActor } from "@/server/test/actors";
import { useTestDb } from "@/server/test/db";
import { createTestKey, createTestOrg } from "@/server/test/factories";
import { callJson } from "@/server/test/http";
import { getIpAllowlist } from "./get-ip-allowlist";
import { getPlan } from "./get-plan";
import { appGetIpAllowlist, appGetPlan, appSetIpAllowlist } from "./operations";
import { isIpOrCidr } from "@/common/ip-entry";
import { setIpAllowlist as setParsedIpAllowlist } from "./set-ip-allowlist";
import { viaBoundary, viaBoundaryNoActor } from "@/server/test/boundary";
import { ZSetIpAllowlist, ZSetPlan } from "./schemas";
import { setPlan as setParsedPlan } from "./set-plan";

const t = useTestDb();
// The routes parse before the domain runs; these calls go through the same boundary (server/test/boundary.ts).
const setIpAllowlist = viaBoundary(ZSetIpAllowlist, setParsedIpAllowlist);
const setPlan = viaBoundaryNoActor(ZSetPlan, setParsedPlan);

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe("plan", () => {
  it("starts with every feature and an unlimited allowance; the operator's changes apply to the next request", async () => {
    const org = await createTestOrg(t.db);
    const member = await createTestMember(t.db, org);
    const key = await createTestKey(t.db, org);
    expect(await getPlan(t.db, member)).toEqual({
      features: { publicApi: true, webhooks: true, customFields: true },
      packageAllowance: null,
      packagesUsed: 0,
      maxTemplates: null,
      maxRecipientsPerPackage: null,
    });
    const plan = await setPlan(t.db, { organisationId: org.organisationId, publicApi: false, packageAllowance: 100 });
    expect(plan).toMatchObject({ features: { publicApi: false, webhooks: true, customFields: true }, packageAllowance: 100 });
    expect((await callJson(getAccount, { key: key.value })).status).toBe(402);
    await setPlan(t.db, { organisationId: org.organisationId, publicApi: true, packageAllowance: null });
    expect((await getPlan(t.db, member)).packageAllowance).toBeNull();
    expect((await callJson(getAccount, { key: key.value })).status).toBe(200);
    expect((await rejection(setPlan(t.db, { organisationId: "org_missing", webhooks: false }))).status).toBe(404);
  });
});

describe("IP allowlist", () => {
  it("validates each entry strictly, naming it by index", async () => {
    const org = await createTestOrg(t.db);
    const err = await rejection(setIpAllowlist(t.db, ownerActor(org), { entries: ["203.0.113.0/24", "2001:db8::/32", "10.1", "::1", "10.0.0.0/33"] }));
    expect(err.status).toBe(422);
    expect(Object.keys(err.details ?? {})).toEqual(["entries.2", "entries.4"]);
    expect((await getIpAllowlist(t.db, ownerActor(org))).entries).toEqual([]);
  });

  it("accepts addresses and ranges (trimmed, de-duplicated) and applies them on the next request", async () => {
    const org = await createTestOrg(t.db);
    const key = await createTestKey(t.db, org);
    const saved = await setIpAllowlist(t.db, ownerActor(org), { entries: [" 203.0.113.0/24 ", "203.0.113.0/24", "2001:db8::1"] });
    expect(saved.entries).toEqual(["203.0.113.0/24", "2001:db8::1"]);
    expect((await getIpAllowlist(t.db, ownerActor(org))).entries).toEqual(saved.entries);
    expect((await callJson(getAccount, { key: key.value, address: "198.51.100.1" })).status).toBe(403);
    expect((await callJson(getAccount, { key: key.value, address: "203.0.113.77" })).status).toBe(200);
    await setIpAllowlist(t.db, ownerActor(org), { entries: [] });
    expect((await callJson(getAccount, { key: key.value, address: "198.51.100.1" })).status).toBe(200);
  });

  // The operations declare it; the route wrapper checks the declared gates before the domain function runs.
  it("is the owner's alone, while any member may read the plan", async () => {
    const org = await createTestOrg(t.db);
    const member = await createTestMember(t.db, org);
    for (const op of [appGetIpAllowlist, appSetIpAllowlist]) {
      expect(() => assertGates(member, op)).toThrow("Only the organisation's owner can do this");
      expect(() => assertGates(ownerActor(org), op)).not.toThrow();
    }
    expect(() => assertGates(member, appGetPlan as TOperation)).not.toThrow();
  });
});

describe("isIpOrCidr", () => {
  it.each(["192.0.2.1", "0.0.0.0/0", "203.0.113.0/24", "2001:db8::1", "::1", "::/0", "2001:db8::/128", "::ffff:192.0.2.1"])("accepts %s", (v) =>
    expect(isIpOrCidr(v)).toBe(true),
  );
  it.each([
    "",
    "10.1",
    "0x7f.0.0.1",
    "010.0.0.1",
    "256.0.0.1",
    "10.0.0.0/33",
    "10.0.0.0/08",
    "10.0.0.0/",
    "2001:db8::/129",
    "fe80::1%eth0",
    "10.0.0.0/8/8",
    "example.com",
    "1.2.3.4 ",
  ])("refuses %j", (v) => expect(isIpOrCidr(v)).toBe(false));
});
