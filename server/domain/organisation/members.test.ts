/**
 * Members of an organisation, as the owner manages them: added with an initial password or a one-time invite
 * link (only its hash stored, 7 days, usable once), given another role, removed — after which the keys they
 * issued answer 401 at once and re-adding them does not revive those keys. Only the owner may change
 * members, the owner cannot remove themselves, and nothing reaches across organisations.
 */
import { eq, sql } from "drizzle-orm";
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { queryRows } from "@/server/db/client";
import { GET as getAccount } from "@/app/api/v1/account/route";
import { apiKeys, invites, users } from "@/server/db/schema";
import { listApiKeys } from "@/server/domain/keys/list-api-keys";
import { assertGates } from "@/server/domain/access/gates";
import type { TOperation } from "@/server/domain/operation";
import { AppError } from "@/server/lib/errors";
import { setClock } from "@/server/lib/clock";
import { sha256Hex, verifyPassword } from "@/server/lib/crypto";
import { newId } from "@/server/lib/ids";
import { createTestMember, ownerActor } from "@/server/test/actors";
import { useTestDb } from "@/server/test/db";
import { createTestKey, createTestOrg } from "@/server/test/factories";
import { callRoute } from "@/server/test/http";
import { acceptInvite as acceptParsedInvite, getInvite } from "./accept-invite";
import { addMember as addParsedMember, INVITE_TTL_MS } from "./add-member";
import { viaBoundary } from "@/server/test/boundary";
import type { Db } from "@/server/db/client";
import { parseOrThrow } from "@/server/lib/parse";
import type { z } from "@/server/lib/zod";
import { ZAcceptInvite, ZAddMember } from "./schemas";
import { changeMemberRole } from "./change-member-role";
import { listMembers } from "./list-members";
import { appAddMember, appChangeMemberRole, appListMembers, appRemoveMember } from "./operations";
import { removeMember } from "./remove-member";

const t = useTestDb();
// The routes parse before the domain runs; these calls go through the same boundary (server/test/boundary.ts).
const addMember = viaBoundary(ZAddMember, addParsedMember);
const acceptInvite = async (db: Db, input: z.input<typeof ZAcceptInvite>) => acceptParsedInvite(db, parseOrThrow(ZAcceptInvite, input, "input"));

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

const T0 = new Date("2030-01-01T09:00:00Z");
const userRow = async (id: string) => (await t.db.select().from(users).where(eq(users.id, id)))[0];

describe("addMember", () => {
  it("with an initial password: an active member with the chosen role", async () => {
    const org = await createTestOrg(t.db);
    const { userId, invite } = await addMember(t.db, ownerActor(org), {
      method: "password",
      name: "Sam Sender",
      email: "Sam@Example.test",
      roleId: org.roleIds.sender,
      password: "a long password",
    });
    expect(invite).toBeNull();
    expect(await verifyPassword("a long password", (await userRow(userId))!.passwordHash!)).toBe(true);
    const members = await listMembers(t.db, ownerActor(org));
    expect(members.map((m) => [m.email, m.role.name, m.isOwner])).toEqual([
      [expect.stringMatching(/^owner@/), "Admin", true],
      ["sam@example.test", "Sender", false],
    ]);
    expect(members[1]).toMatchObject({ userId, status: "ACTIVE", inviteExpiresAt: null });
  });

  it("with an invite link: returned once, hashed at rest, valid 7 days, usable once", async () => {
    const org = await createTestOrg(t.db);
    setClock(() => T0);
    const { userId, invite } = await addMember(t.db, ownerActor(org), {
      method: "invite",
      name: "Ivy",
      email: "ivy@example.test",
      roleId: org.roleIds.viewer,
    });
    expect(invite?.path).toMatch(/^\/invite\/[A-Za-z0-9_-]{43}$/);
    expect(invite?.expiresAt.getTime()).toBe(T0.getTime() + INVITE_TTL_MS);
    const token = invite!.path.split("/")[2]!;
    const [stored] = await t.db.select().from(invites).where(eq(invites.userId, userId));
    expect(stored?.tokenHash).toBe(sha256Hex(token));
    expect((await listMembers(t.db, ownerActor(org)))[1]).toMatchObject({ status: "INVITED", inviteExpiresAt: invite!.expiresAt });
    expect(await getInvite(t.db, token)).toMatchObject({ email: "ivy@example.test", name: "Ivy" });

    setClock(() => new Date(T0.getTime() + INVITE_TTL_MS - 1));
    await acceptInvite(t.db, { token, name: "Ivy Viewer", password: "ivy's password" });
    const user = await userRow(userId);
    expect(user?.name).toBe("Ivy Viewer");
    expect(await verifyPassword("ivy's password", user!.passwordHash!)).toBe(true);
    expect((await listMembers(t.db, ownerActor(org)))[1]?.status).toBe("ACTIVE");
    expect((await rejection(acceptInvite(t.db, { token, password: "another password" }))).status).toBe(404);
  });

  it("an invite link no longer works from its 7-day expiry on", async () => {
    const org = await createTestOrg(t.db);
    setClock(() => T0);
    const { invite } = await addMember(t.db, ownerActor(org), { method: "invite", name: "Late", email: "late@example.test", roleId: org.roleIds.viewer });
    setClock(() => invite!.expiresAt);
    const token = invite!.path.split("/")[2]!;
    expect((await rejection(getInvite(t.db, token))).status).toBe(404);
    expect((await rejection(acceptInvite(t.db, { token, password: "too late now" }))).status).toBe(404);
    expect((await rejection(acceptInvite(t.db, { token: "made-up", password: "too late now" }))).status).toBe(404);
  });

  it("refuses a current member (409), another organisation's user (409), a foreign role (422) and a weak password (422)", async () => {
    const org = await createTestOrg(t.db);
    const other = await createTestOrg(t.db, "Other");
    const owner = ownerActor(org);
    await addMember(t.db, owner, { method: "invite", name: "A", email: "a@example.test", roleId: org.roleIds.viewer });
    const dup = await rejection(addMember(t.db, owner, { method: "invite", name: "A", email: "A@example.test", roleId: org.roleIds.viewer }));
    expect([dup.status, dup.message]).toEqual([409, "This person is already a member"]);
    await addMember(t.db, ownerActor(other), { method: "invite", name: "B", email: "b@example.test", roleId: other.roleIds.viewer });
    expect((await rejection(addMember(t.db, owner, { method: "invite", name: "B", email: "b@example.test", roleId: org.roleIds.viewer }))).status).toBe(409);
    const foreignRole = await rejection(addMember(t.db, owner, { method: "invite", name: "C", email: "c@example.test", roleId: other.roleIds.viewer }));
    expect(foreignRole.details).toEqual({ roleId: ["Choose a role of this organisation"] });
    const weak = await rejection(
      addMember(t.db, owner, { method: "password", name: "C", email: "c@example.test", roleId: org.roleIds.viewer, password: "short" }),
    );
    expect(Object.keys(weak.details ?? {})).toEqual(["password"]);
  });

  /*
   * Regression: two concurrent adds of the same new email both passed the "already a member?" check (there is
   * no row to lock yet), and the loser's insert hit the unique index on users.email: on PostgreSQL that was a
   * 500 "Internal error". The violation is answered 409 like the check's own answer.
   */
  it("two concurrent adds of the same email: one member is added, the other request is 409", async () => {
    const org = await createTestOrg(t.db);
    const owner = ownerActor(org);
    const input = { method: "invite", name: "Race", email: "race@example.test", roleId: org.roleIds.viewer } as const;
    const results = await Promise.allSettled([addMember(t.db, owner, input), addMember(t.db, owner, input)]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const [lost] = results.filter((r) => r.status === "rejected");
    expect(lost?.reason).toBeInstanceOf(AppError);
    expect([(lost?.reason as AppError).status, (lost?.reason as AppError).message]).toEqual([409, "This person is already a member"]);
    expect(await t.db.select().from(users).where(eq(users.email, "race@example.test"))).toHaveLength(1);
  });

  /*
   * The same race made deterministic on PostgreSQL: another connection has inserted the same email (user and
   * membership) but not committed when addMember checks, so the check sees nothing and the insert waits on the
   * unique index; once the other transaction commits, the insert fails with a unique violation → 409.
   */
  it.skipIf(!process.env.DATABASE_URL)("PostgreSQL: an add that loses the race on the unique email is 409, not 500", async () => {
    const org = await createTestOrg(t.db);
    const other = postgres(t.url, { max: 1, onnotice: () => {} });
    try {
      const conn = await other.reserve();
      await conn`begin`;
      const userId = newId("usr");
      await conn`insert into users (id, email, name) values (${userId}, ${"race@example.test"}, ${"First"})`;
      await conn`insert into memberships (id, organisation_id, user_id, role_id, is_owner) values (${newId("mem")}, ${org.organisationId}, ${userId}, ${org.roleIds.viewer}, false)`;
      const adding = addMember(t.db, ownerActor(org), { method: "invite", name: "Second", email: "race@example.test", roleId: org.roleIds.viewer }).then(
        () => undefined,
        (e: unknown) => e,
      );
      for (let i = 0; ; i++) {
        const [row] = await queryRows<{ n: number }>(
          t.db,
          sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
        );
        if ((row?.n ?? 0) > 0) break;
        if (i > 200) throw new Error("addMember never waited on the uncommitted insert");
        await new Promise((r) => setTimeout(r, 10));
      }
      await conn`commit`;
      conn.release();
      const err = await adding;
      expect(err).toBeInstanceOf(AppError);
      expect([(err as AppError).status, (err as AppError).message]).toEqual([409, "This person is already a member"]);
    } finally {
      await other.end();
    }
  });

  // The operations declare it; the route wrapper checks the declared gates before the domain function runs.
  it("is the owner's alone (403 for other members); any member may read the list", async () => {
    const org = await createTestOrg(t.db);
    const member = await createTestMember(t.db, org);
    for (const op of [appAddMember, appRemoveMember, appChangeMemberRole]) {
      expect(() => assertGates(member, op)).toThrow("Only the organisation's owner can do this");
      expect(() => assertGates(ownerActor(org), op)).not.toThrow();
    }
    expect(() => assertGates(member, appListMembers as TOperation)).not.toThrow();
  });
});

describe("removeMember", () => {
  it("makes the member's keys answer 401 on the next request, keeps 'Issued by'", async () => {
    const org = await createTestOrg(t.db);
    const member = await createTestMember(t.db, org);
    const key = await createTestKey(t.db, org);
    await t.db.update(apiKeys).set({ issuedByUserId: member.user.id }).where(eq(apiKeys.id, key.id));
    expect((await callRoute(getAccount, { key: key.value })).status).toBe(200);

    await removeMember(t.db, ownerActor(org), { userId: member.user.id });
    expect((await callRoute(getAccount, { key: key.value })).status).toBe(401);
    expect((await userRow(member.user.id))?.deletedAt).not.toBeNull();
    expect((await listMembers(t.db, ownerActor(org))).map((m) => m.userId)).toEqual([org.userId]);
    expect((await listApiKeys(t.db, ownerActor(org)))[0]?.issuedBy.email).toBe(member.user.email);
  });

  it("kills the removed member's pending invite link", async () => {
    const org = await createTestOrg(t.db);
    const { userId, invite } = await addMember(t.db, ownerActor(org), { method: "invite", name: "I", email: "i@example.test", roleId: org.roleIds.viewer });
    await removeMember(t.db, ownerActor(org), { userId });
    const token = invite!.path.split("/")[2]!;
    expect((await rejection(acceptInvite(t.db, { token, password: "sneaking back in" }))).status).toBe(404);
  });

  it("re-adding a removed member starts afresh: their old keys stay dead (revoked)", async () => {
    const org = await createTestOrg(t.db);
    const member = await createTestMember(t.db, org);
    const key = await createTestKey(t.db, org);
    await t.db.update(apiKeys).set({ issuedByUserId: member.user.id }).where(eq(apiKeys.id, key.id));
    await removeMember(t.db, ownerActor(org), { userId: member.user.id });
    const again = await addMember(t.db, ownerActor(org), {
      method: "password",
      name: "Back",
      email: member.user.email,
      roleId: org.roleIds.admin,
      password: "welcome back!",
    });
    expect(again.userId).toBe(member.user.id);
    expect((await callRoute(getAccount, { key: key.value })).status).toBe(401);
    expect((await listApiKeys(t.db, ownerActor(org)))[0]?.status).toBe("REVOKED");
  });

  it("refuses to remove the owner (themselves) and answers 404 outside the organisation", async () => {
    const org = await createTestOrg(t.db);
    const other = await createTestOrg(t.db, "Other");
    const self = await rejection(removeMember(t.db, ownerActor(org), { userId: org.userId }));
    expect(self.status).toBe(403);
    const foreign = await createTestMember(t.db, other);
    expect((await rejection(removeMember(t.db, ownerActor(org), { userId: foreign.user.id }))).status).toBe(404);
    expect((await userRow(foreign.user.id))?.deletedAt).toBeNull();
  });
});

describe("changeMemberRole", () => {
  it("changes the member's role within the organisation only", async () => {
    const org = await createTestOrg(t.db);
    const other = await createTestOrg(t.db, "Other");
    const member = await createTestMember(t.db, org, org.roleIds.viewer);
    await changeMemberRole(t.db, ownerActor(org), { userId: member.user.id, roleId: org.roleIds.sender });
    expect((await listMembers(t.db, ownerActor(org))).find((m) => m.userId === member.user.id)?.role.name).toBe("Sender");
    const foreignRole = await rejection(changeMemberRole(t.db, ownerActor(org), { userId: member.user.id, roleId: other.roleIds.admin }));
    expect(foreignRole.status).toBe(422);
    const foreignMember = await createTestMember(t.db, other);
    expect((await rejection(changeMemberRole(t.db, ownerActor(org), { userId: foreignMember.user.id, roleId: org.roleIds.sender }))).status).toBe(404);
  });
});
