import { and, count, eq, isNull } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { apiKeys, organisations, roles, workspaces } from "@/server/db/schema";
import type { TSessionActor } from "@/server/domain/actor";
import { recordAudit } from "@/server/domain/audit/record-audit";
import { assertOwner } from "@/server/domain/organisation/assert-owner";
import { errors } from "@/server/http/errors";
import { parseOrThrow } from "@/server/http/validation";
import { z } from "@/server/http/zod";
import { now } from "@/server/lib/clock";
import { newId } from "@/server/lib/ids";
import { endOfDayInZone, isValidTimeZone } from "./end-of-day";
import { generateApiKeyValue } from "./key-value";

/** Spec: at most 50 unrevoked keys per organisation; expired keys count until revoked. */
export const MAX_UNREVOKED_KEYS = 50;

export const ZCreateApiKey = z
  .object({
    name: z.string().trim().min(1, "Name is required").max(100, "Use at most 100 characters"),
    roleId: z.string().min(1, "Choose a role"),
    workspaceId: z.string().min(1, "Choose a workspace"),
    /** The last day the key works, in the creator's time zone. */
    expiresOn: z.iso.date("Use a date like 2030-12-31").optional(),
    /**
     * The creator's IANA time zone (the browser's `Intl.DateTimeFormat().resolvedOptions().timeZone`). Read
     * only with `expiresOn`, the day it places: without an expiry date it is ignored, never refused — the
     * owner never filled it in, so an unusual browser zone must not block a key that never expires.
     */
    timeZone: z.string().optional(),
  })
  .superRefine((v, ctx) => {
    if (!v.expiresOn) return;
    if (!v.timeZone) ctx.addIssue({ code: "custom", path: ["timeZone"], message: "A time zone is required with an expiry date" });
    else if (!isValidTimeZone(v.timeZone)) ctx.addIssue({ code: "custom", path: ["timeZone"], message: "Unknown time zone" });
  });
export type TCreateApiKey = z.input<typeof ZCreateApiKey>;

export type TCreatedApiKey = {
  id: string;
  name: string;
  prefix: string;
  /** The full key: returned here once, never stored, never readable again. */
  value: string;
  expiresAt: Date | null;
};

/**
 * Issues a key bound to a role holding API access and to one workspace of the owner's organisation. The count
 * against the cap and the insert run under a lock on the organisation row, so two concurrent creations
 * cannot both take the 50th place.
 */
export async function createApiKey(db: Db, actor: TSessionActor, input: TCreateApiKey): Promise<TCreatedApiKey> {
  assertOwner(actor);
  const data = parseOrThrow(ZCreateApiKey, input, "input");
  const expiresAt = data.expiresOn && data.timeZone ? endOfDayInZone(data.expiresOn, data.timeZone) : null;
  if (expiresAt && expiresAt.getTime() <= now().getTime()) {
    throw errors.validation({ expiresOn: ["Choose today or a later date"] });
  }
  const orgId = actor.organisationId;
  return db.transaction(async (tx) => {
    await tx.select({ id: organisations.id }).from(organisations).where(eq(organisations.id, orgId)).for("update");
    const [role] = await tx.select().from(roles).where(and(eq(roles.id, data.roleId), eq(roles.organisationId, orgId)));
    if (!role) throw errors.validation({ roleId: ["Choose a role of this organisation"] });
    if (!role.apiAccess) throw errors.validation({ roleId: ["This role has no API access"] });
    const [workspace] = await tx
      .select({ id: workspaces.id })
      .from(workspaces)
      .where(and(eq(workspaces.id, data.workspaceId), eq(workspaces.organisationId, orgId)));
    if (!workspace) throw errors.validation({ workspaceId: ["Choose a workspace of this organisation"] });
    const [used] = await tx
      .select({ n: count() })
      .from(apiKeys)
      .where(and(eq(apiKeys.organisationId, orgId), isNull(apiKeys.revokedAt)));
    if ((used?.n ?? 0) >= MAX_UNREVOKED_KEYS) {
      throw errors.conflict(
        `This organisation already has ${MAX_UNREVOKED_KEYS} API keys that are not revoked (expired keys count until they are revoked). Revoke a key to create another.`,
      );
    }
    const { value, hash, prefix } = generateApiKeyValue();
    const id = newId("key");
    await tx.insert(apiKeys).values({
      id,
      organisationId: orgId,
      workspaceId: workspace.id,
      roleId: role.id,
      issuedByUserId: actor.userId,
      name: data.name,
      prefix,
      hash,
      expiresAt,
      createdAt: now(),
    });
    await recordAudit(tx, {
      organisationId: orgId,
      workspaceId: workspace.id,
      subjectType: "api_key",
      subjectId: id,
      action: "api_key.created",
      actorUserId: actor.userId,
      data: { name: data.name, prefix, roleId: role.id, expiresAt: expiresAt?.toISOString() ?? null },
    });
    return { id, name: data.name, prefix, value, expiresAt };
  });
}
