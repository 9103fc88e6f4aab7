import type { Db } from "@/server/db/client";
import type { TActor } from "@/server/domain/access/actor";
import { releaseLock } from "@/server/domain/locks/release-lock";
import { findTemplate } from "./find-template";

/** Releases the actor's lock on a template; with `force`, the owner breaks another member's. */
export async function unlockTemplate(db: Db, actor: TActor, templateId: string, opts: { force: boolean }) {
  const template = await findTemplate(db, actor, templateId);
  return releaseLock(db, actor, { type: "template", id: template.id }, opts);
}
