/**
 * The app API routes behind Settings → Members and /invite/[token], end to end on a real database: an invite
 * link is returned once and accepted through the public route (no session, the token is the credential) only
 * once; a removed member disappears from the list; a member who is not the owner cannot add anyone.
 */
import { afterEach, describe, expect, it } from "vitest";
import { setSessionLookup } from "@/server/auth/app-route";
import type { TActor } from "@/server/domain/access/actor";
import { createTestMember, ownerActor } from "@/server/test/actors";
import { useTestDb } from "@/server/test/db";
import { createTestOrg } from "@/server/test/factories";
import { POST as accept } from "../invites/[token]/accept/route";
import { DELETE as remove } from "./[userId]/route";
import { GET as list, POST as add } from "./route";

const t = useTestDb();
afterEach(() => setSessionLookup(undefined));

const json = (method: string, body?: unknown) =>
  new Request("http://localhost:3000/api/app/members", {
    method,
    // What the app's own page sends with a write (server/auth/same-origin-write.ts).
    headers: { "sec-fetch-site": "same-origin", ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const noParams = { params: Promise.resolve({}) };

/** Signs in as the actor's user, or as nobody (the door loads the actor from the database, as for a real session). */
function as(actor: TActor | null) {
  setSessionLookup(async () => actor && { userId: actor.user.id, organisationId: actor.organisation.id });
}

describe("/api/app/members", () => {
  it("adds a member with an invite link that works once, then removes them", async () => {
    const org = await createTestOrg(t.db);
    as(ownerActor(org));
    const res = await add(json("POST", { method: "invite", name: "Ivy", email: "Ivy@Example.test", roleId: org.roleIds.sender }), noParams);
    expect(res.status).toBe(201);
    const { data } = (await res.json()) as { data: { userId: string; invite: { path: string } } };
    const token = data.invite.path.replace("/invite/", "");

    as(null);
    const ctx = { params: Promise.resolve({ token }) };
    const short = await accept(json("POST", { password: "short" }), ctx);
    expect(short.status).toBe(422);
    expect(Object.keys(((await short.json()) as { details: object }).details)).toEqual(["password"]);
    expect((await accept(json("POST", { password: "ivy-password-1" }), ctx)).status).toBe(200);
    expect((await accept(json("POST", { password: "ivy-password-1" }), ctx)).status).toBe(404);

    as(ownerActor(org));
    const members = (await (await list(json("GET"), noParams)).json()) as { data: { email: string; status: string }[] };
    expect(members.data.find((m) => m.email === "ivy@example.test")?.status).toBe("ACTIVE");
    const removed = await remove(json("DELETE"), { params: Promise.resolve({ userId: data.userId }) });
    expect(removed.status).toBe(200);
    const after = (await (await list(json("GET"), noParams)).json()) as { data: { email: string }[] };
    expect(after.data.map((m) => m.email)).not.toContain("ivy@example.test");
  });

  it("refuses a member who is not the owner", async () => {
    const org = await createTestOrg(t.db);
    const member = await createTestMember(t.db, org, org.roleIds.viewer);
    as(member);
    const res = await add(json("POST", { method: "invite", name: "X", email: "x@example.test", roleId: org.roleIds.viewer }), noParams);
    expect(res.status).toBe(403);
  });

  /* Regression: a NUL character in the new member's name used to reach PostgreSQL and answer 500. */
  it("answers 422, not 500, for a NUL character in the name", async () => {
    const org = await createTestOrg(t.db);
    as(ownerActor(org));
    const res = await add(json("POST", { method: "invite", name: "I\u0000vy", email: "ivy@example.test", roleId: org.roleIds.sender }), noParams);
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({ error: "Validation failed", details: { name: ["Must not contain NUL characters"] } });
  });
});
