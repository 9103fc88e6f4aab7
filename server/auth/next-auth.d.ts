/* eslint-disable @typescript-eslint/consistent-type-definitions -- next-auth's types are extended by interface merging */
import type { TSessionActor } from "@/server/domain/actor";

declare module "next-auth" {
  interface Session {
    /** Null when the user may no longer act (removed, deleted); the app then sends them to /signin. */
    actor: TSessionActor | null;
    organisationName: string | null;
  }
  interface User {
    organisationId: string;
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    userId?: string;
    organisationId?: string;
    isOwner?: boolean;
    roleId?: string;
    organisationName?: string;
    active?: boolean;
  }
}
