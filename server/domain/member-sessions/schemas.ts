/**
 * The member-sessions capability's shapes: the Account page's list of where the member is signed in, the
 * answers of ending one session or all the others, and the member's recent failed sign-ins.
 */
import { z } from "@/server/lib/zod";

export const ZMemberSession = z
  .object({
    id: z.string(),
    /** The session this request came from. */
    current: z.boolean(),
    /** The browser and system, from the User-Agent at sign-in ("Firefox on Windows"). */
    device: z.string(),
    /** The address the session signed in from, as our server saw it. */
    clientAddress: z.string().nullable(),
    signedInAt: z.date(),
    /** Within a minute (last_seen_at moves at most once a minute). */
    lastActiveAt: z.date(),
  })
  .openapi("MemberSession");
export type TMemberSession = z.output<typeof ZMemberSession>;

export const ZMemberSessionParams = z.object({ sessionId: z.string().min(1) });

export const ZEndedMemberSession = z.object({ id: z.string(), ended: z.literal(true) }).openapi("EndedMemberSession");
export type TEndedMemberSession = z.output<typeof ZEndedMemberSession>;

export const ZEndedOtherSessions = z.object({ ended: z.number().int() }).openapi("EndedOtherSessions");
export type TEndedOtherSessions = z.output<typeof ZEndedOtherSessions>;

export const ZFailedSignIn = z
  .object({
    at: z.date(),
    /** The address the attempt came from, as our server saw it. */
    clientAddress: z.string().nullable(),
    /** The browser and system its User-Agent names ("Firefox on Windows"). */
    device: z.string(),
  })
  .openapi("FailedSignIn");

export const ZMyFailedSignIns = z
  .object({
    /** How many in the last `days` days. */
    count: z.number().int(),
    days: z.number().int(),
    /** The newest of them, at most 10. */
    recent: z.array(ZFailedSignIn),
  })
  .openapi("MyFailedSignIns");
export type TMyFailedSignIns = z.output<typeof ZMyFailedSignIns>;
