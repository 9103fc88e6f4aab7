import type { Db } from "@/server/db/client";
import { roles } from "@/server/db/schema";
import type { TSessionActor } from "@/server/domain/actor";
import { recordAudit } from "@/server/domain/audit/record-audit";
import { errors } from "@/server/http/errors";
import { parseOrThrow } from "@/server/http/validation";
import type { z } from "@/server/http/zod";
import { now } from "@/server/lib/clock";
import { newId } from "@/server/lib/ids";
import { assertOwner } from "./assert-owner";
import { assertRoleNameFree, roleNameTaken, ZRoleFields } from "./role-fields";
import { isUniqueViolation } from "./unique-violation";

export const ZCreateRole = ZRoleFields;
export type TCreateRole = z.input<typeof ZCreateRole>;

/** A custom role with the spec's permissions (owner only). Returns its id. */
export async function createRole(db: Db, actor: TSessionActor, input: TCreateRole): Promise<{ id: string }> {
  assertOwner(actor);
  const data = parseOrThrow(ZCreateRole, input, "input");
  const orgId = actor.organisationId;
  try {
    return await db.transaction(async (tx) => {
      await assertRoleNameFree(tx, orgId, data.name);
      const id = newId("role");
      const at = now();
      await tx.insert(roles).values({ id, organisationId: orgId, builtIn: null, ...data, createdAt: at, updatedAt: at });
      await recordAudit(tx, {
        organisationId: orgId,
        subjectType: "role",
        subjectId: id,
        action: "role.created",
        actorUserId: actor.userId,
        data: { ...data },
      });
      return { id };
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw errors.conflict(roleNameTaken(data.name));
    throw err;
  }
}
