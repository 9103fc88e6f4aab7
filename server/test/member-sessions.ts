/**
 * What the members' sessions tests share (server/domain/member-sessions/: member-sessions, sign-ins and session-lifetime tests): an owner signed
 * in on two devices at known times, Sam as a second member, and reads of the sessions' rows and events.
 */
import { and, eq } from "drizzle-orm";
import { GET as listRoute } from "@/app/api/app/me/sessions/route";
import { auditEvents, memberSessions } from "@/server/db/schema";
import { authorizeCredentials } from "@/server/auth/authorize-credentials";
import { loadSessionActor } from "@/server/domain/access/load-session-actor";
import { addMember } from "@/server/domain/organisation/add-member";
import { createOrganisationWithOwner as createParsedOrganisation } from "@/server/domain/organisation/create-organisation";
import { ZCreateOwner } from "@/server/domain/organisation/schemas";
import { setClock } from "@/server/lib/clock";
import { viaBoundaryNoActor } from "@/server/test/boundary";
import { callApp } from "@/server/test/app-http";
import type { TTestDb } from "@/server/test/db";
import type { TMemberSession } from "@/server/domain/member-sessions/schemas";

export const owner = { name: "Olga Owner", email: "olga@example.com", password: "correct horse battery", organisationName: "Acme" };
export const SAM = { email: "sam@example.com", password: "sams password 1" };

export const FIREFOX_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";
export const SAFARI_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";
export const CHROME_LINUX = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

export const T0 = new Date("2026-11-02T09:00:00Z").getTime();
export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const DAY = 24 * 60 * MINUTE;
/** Sets the clock to `ms` after T0. */
export const at = (ms: number) => setClock(() => new Date(T0 + ms));

export type TIdentity = { userId: string; organisationId: string; sessionId: string };

/** The names the Activity sentences may use: none known, or the given users. */
export const activityNames = (users = new Map<string, { name: string; email: string }>()) => ({
  users,
  apiKeys: new Map(),
  roles: new Map(),
  workspaces: new Map(),
  endpoints: new Map(),
  signingGroups: new Map(),
});

/** Creates an organisation and its owner through the boundary's validation, as the setup page does. */
export const createOrganisationWithOwner = viaBoundaryNoActor(ZCreateOwner, createParsedOrganisation);

export function sessionHelpers(t: TTestDb) {
  async function signIn(email: string, password: string, userAgent: string | null, clientAddress: string | null): Promise<TIdentity> {
    const user = await authorizeCredentials(t.db, { email, password }, { clientAddress, userAgent });
    if (!user) throw new Error("sign-in refused");
    return { userId: user.id, organisationId: user.organisationId, sessionId: user.sessionId };
  }

  /** At T0 the owner creates the organisation and signs in on a laptop; 10 s later on a phone. */
  async function setup() {
    at(0);
    const org = await createOrganisationWithOwner(t.db, owner);
    const laptop = await signIn(owner.email, owner.password, FIREFOX_WINDOWS, "198.51.100.7");
    at(10 * SECOND);
    const phone = await signIn(owner.email, owner.password, SAFARI_IPHONE, "203.0.113.9");
    return { org, laptop, phone };
  }

  /** The owner, signed in as `by`, adds Sam with a password (as Admin, the owner's role); Sam's user id. */
  async function addSam(by: TIdentity): Promise<string> {
    const ownerActor = (await loadSessionActor(t.db, by))!;
    const added = await addMember(t.db, ownerActor, { method: "password", name: "Sam", email: SAM.email, roleId: ownerActor.role.id, password: SAM.password });
    return added.userId;
  }

  return {
    signIn,
    setup,
    addSam,
    signInSam: (userAgent: string) => signIn(SAM.email, SAM.password, userAgent, null),
    live: async (identity: TIdentity) => (await loadSessionActor(t.db, identity)) !== null,
    list: (as: TIdentity) => callApp<{ data: TMemberSession[] }>(listRoute, { as }),
    sessionRows: async (userId: string) => (await t.db.select().from(memberSessions).where(eq(memberSessions.userId, userId))).map((r) => r.id).sort(),
    eventsOf: (userId: string, action: string) =>
      t.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.subjectId, userId), eq(auditEvents.action, action)))
        .orderBy(auditEvents.createdAt),
  };
}
