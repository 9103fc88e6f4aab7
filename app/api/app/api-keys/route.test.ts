/**
 * The app API routes behind Settings → API keys, called as Next calls them (new Request()) against a real
 * database, as the owner, as another member and as nobody: the value comes back once and never again, a bad
 * body is a 422 keyed by field, only the owner may list/create/revoke, and revocation shows in the list.
 */
import { afterEach, describe, expect, it } from "vitest";
import { setSessionLookup } from "@/server/auth/app-route";
import type { TActor } from "@/server/domain/access/actor";
import { createTestMember, ownerActor } from "@/server/test/actors";
import { useTestDb } from "@/server/test/db";
import { createTestOrg } from "@/server/test/factories";
import { POST as revoke } from "./[keyId]/revoke/route";
import { GET as list, POST as create } from "./route";

const t = useTestDb();
afterEach(() => setSessionLookup(undefined));

/** Signs in as the actor's user (the door loads the actor from the database, as for a real session). */
function as(actor: TActor | null) {
  setSessionLookup(async () => actor && { userId: actor.user.id, organisationId: actor.organisation.id });
}

function request(method: string, body?: unknown): Request {
  return new Request("http://localhost:3000/api/app/api-keys", {
    method,
    // What the app's own page sends with a write (server/auth/same-origin-write.ts).
    headers: { "sec-fetch-site": "same-origin", ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

const noParams = { params: Promise.resolve({}) };

describe("/api/app/api-keys", () => {
  it("creates a key whose value is returned once, lists it by prefix, and revokes it", async () => {
    const org = await createTestOrg(t.db);
    as(ownerActor(org));
    const created = await create(request("POST", { name: "CRM", roleId: org.roleIds.admin, workspaceId: org.workspaceId, timeZone: "Europe/Paris" }), noParams);
    expect(created.status).toBe(201);
    const { data: key } = (await created.json()) as { data: { id: string; value: string; prefix: string } };
    expect(key.value).toMatch(/^fsk_/);
    expect(key.value.startsWith(key.prefix)).toBe(true);

    const listed = await list(request("GET"), noParams);
    const text = await listed.text();
    expect(text).not.toContain(key.value);
    const rows = (JSON.parse(text) as { data: { id: string; prefix: string; status: string; role: { name: string } }[] }).data;
    expect(rows).toMatchObject([{ id: key.id, prefix: key.prefix, status: "ACTIVE", role: { name: "Admin" } }]);

    const revoked = await revoke(request("POST"), { params: Promise.resolve({ keyId: key.id }) });
    expect(revoked.status).toBe(200);
    const after = (await (await list(request("GET"), noParams)).json()) as { data: { status: string }[] };
    expect(after.data[0]?.status).toBe("REVOKED");
  });

  it("answers 422 with details by field for a bad body", async () => {
    const org = await createTestOrg(t.db);
    as(ownerActor(org));
    const res = await create(
      request("POST", { name: "", roleId: org.roleIds.admin, workspaceId: org.workspaceId, expiresOn: "31/12/2030", timeZone: "Europe/Paris" }),
      noParams,
    );
    expect(res.status).toBe(422);
    const body = (await res.json()) as { details: Record<string, string[]> };
    expect(Object.keys(body.details).sort()).toEqual(["expiresOn", "name"]);
  });

  it("refuses a member who is not the owner (403) and nobody (401)", async () => {
    const org = await createTestOrg(t.db);
    as(await createTestMember(t.db, org));
    const res = await list(request("GET"), noParams);
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: "Only the organisation's owner can do this" });
    const created = await create(request("POST", { name: "k", roleId: org.roleIds.admin, workspaceId: org.workspaceId }), noParams);
    expect(created.status).toBe(403);
    expect((await revoke(request("POST"), { params: Promise.resolve({ keyId: "key_x" }) })).status).toBe(403);

    as(null);
    expect((await list(request("GET"), noParams)).status).toBe(401);
  });

  /*
   * Regression: a NUL character in a name, a role id or the key id of the path used to reach PostgreSQL,
   * which cannot store it, and answer 500 "Internal error". It is a 422 at the field instead.
   */
  it("answers 422, not 500, for a NUL character in the name, the role id or the revoked key's id", async () => {
    const org = await createTestOrg(t.db);
    as(ownerActor(org));
    const valid = { name: "CRM", roleId: org.roleIds.admin, workspaceId: org.workspaceId };
    for (const [field, body] of [
      ["name", { ...valid, name: "a\u0000b" }],
      ["roleId", { ...valid, roleId: `${org.roleIds.admin}\u0000` }],
    ] as const) {
      const res = await create(request("POST", body), noParams);
      expect(res.status).toBe(422);
      expect(await res.json()).toEqual({ error: "Validation failed", details: { [field]: ["Must not contain NUL characters"] } });
    }
    const revoked = await revoke(request("POST"), { params: Promise.resolve({ keyId: "key_\u0000" }) });
    expect(revoked.status).toBe(422);
    expect(await revoked.json()).toEqual({ error: "Validation failed", details: { keyId: ["Must not contain NUL characters"] } });
    expect((await list(request("GET"), noParams)).status).toBe(200);
  });
});
