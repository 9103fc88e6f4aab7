import type { Db } from "@/server/db/client";
import type { TActor } from "@/server/domain/access/actor";
import { acquireLock } from "@/server/domain/locks/acquire-lock";
import { toLockHolderView } from "@/server/domain/locks/lock-holder-view";
import { findTemplate } from "./find-template";
import type { TTemplateRef } from "./schemas";

/** The editor's lease on a template of the actor's workspace: taken or renewed, 409 while another member holds it. */
export async function lockTemplate(db: Db, actor: TActor, input: TTemplateRef) {
  const template = await findTemplate(db, actor, input.templateId);
  const lock = await acquireLock(db, actor, { type: "template", id: template.id });
  return toLockHolderView(lock, actor);
}
