import type { Db } from "@/server/db/client";
import type { TActor } from "@/server/domain/access/actor";
import { releaseLock } from "@/server/domain/locks/release-lock";
import { findTemplate } from "./find-template";
import type { TTemplateRef, ZUnlockQuery } from "./schemas";
import type { z } from "@/server/lib/zod";

export type TUnlockTemplateInput = TTemplateRef & z.output<typeof ZUnlockQuery>;

/** Releases the actor's lock on a template; with `force`, the owner breaks another member's. */
export async function unlockTemplate(db: Db, actor: TActor, input: TUnlockTemplateInput) {
  const template = await findTemplate(db, actor, input.templateId);
  return releaseLock(db, actor, { type: "template", id: template.id }, { force: input.force });
}
