import { count, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { templateRoles } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { errors } from "@/server/lib/errors";
import { newId } from "@/server/lib/ids";
import { now } from "@/server/lib/clock";
import type { z } from "@/server/lib/zod";
import { assertSigningGroup } from "./assert-signing-group";
import type { TTemplateRef, ZCreateRole } from "./schemas";
import { shiftRolePositions } from "./shift-role-positions";
import { toRoleView } from "./template-view";
import { withTemplateEdit } from "./with-template-edit";

export type TAddTemplateRoleInput = TTemplateRef & z.output<typeof ZCreateRole>;

/** Inserts a role at `order` (default: last); the roles from that position on move down one, with their fields. */
export async function addTemplateRole(db: Db, actor: TActor, input: TAddTemplateRoleInput) {
  return withTemplateEdit(db, actor, input.templateId, async (tx, template) => {
    const [existing] = await tx.select({ n: count() }).from(templateRoles).where(eq(templateRoles.templateId, template.id));
    const roleCount = existing?.n ?? 0;
    const position = input.order ?? roleCount;
    if (position > roleCount) {
      throw errors.validation({ order: [`The template has ${roleCount} role${roleCount === 1 ? "" : "s"}: order must be at most ${roleCount}`] });
    }
    if (input.signingGroupId) await assertSigningGroup(tx, actor, { signingGroupId: input.signingGroupId });
    if (position < roleCount) await shiftRolePositions(tx, template.id, { from: position }, 1);
    const [row] = await tx
      .insert(templateRoles)
      .values({
        id: newId("trole"),
        templateId: template.id,
        position,
        name: input.name,
        signingGroupId: input.signingGroupId ?? null,
        authMethod: input.authentication?.method ?? "NONE",
        createdAt: now(),
      })
      .returning();
    return { result: toRoleView(row!), action: "template.role_added", data: { roleId: row!.id, roleIndex: position, name: row!.name } };
  });
}
