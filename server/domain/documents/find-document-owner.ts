import { eq, type SQL } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { documents, packages, templates } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { assertNotLocked } from "@/server/domain/locks/assert-not-locked";
import { findPackage } from "@/server/domain/packages/find-package";
import { guardActiveTemplate } from "@/server/domain/templates/find-activation-blockers";
import { findTemplate } from "@/server/domain/templates/find-template";
import { now } from "@/server/lib/clock";
import { errors } from "@/server/lib/errors";

/** Who a document belongs to: a template or a package. */
export type TDocumentOwner = { templateId: string } | { packageId: string };

export type TFoundOwner = {
  /** The owner columns of a documents row. */
  columns: { templateId: string | null; packageId: string | null };
  /** `where` condition selecting this owner's documents. */
  owns: SQL;
  /**
   * Marks the owner changed (templates are listed by `updatedAt`); called after the change, in its transaction.
   * For an ACTIVE template it refuses (409) a change that would stop it making packages (guardActiveTemplate).
   */
  touch(db: Db): Promise<void>;
  /** For audit data. */
  ref: Record<string, string>;
};

/**
 * The owner of the documents in the actor's workspace, or 404. `forChange` locks the owner's row for the rest
 * of the transaction (positions and concurrent deletes apply one after the other) and refuses with 409 while
 * another member holds the app's edit lock. A package must be visible to the actor (visiblePackages: others
 * are 404, as on every package route), and its documents change only while it is a DRAFT (409 once
 * scheduled or sent: what is sent is what was prepared).
 */
export async function findDocumentOwner(db: Db, actor: TActor, owner: TDocumentOwner, opts: { forChange?: boolean } = {}): Promise<TFoundOwner> {
  if ("templateId" in owner) {
    const template = await findTemplate(db, actor, owner.templateId, { forUpdate: opts.forChange });
    if (opts.forChange) await assertNotLocked(db, actor, { type: "template", id: template.id });
    const keepsActive = opts.forChange ? await guardActiveTemplate(db, template) : null;
    return {
      columns: { templateId: template.id, packageId: null },
      owns: eq(documents.templateId, template.id),
      touch: async (tx) => {
        await keepsActive?.();
        await tx.update(templates).set({ updatedAt: now() }).where(eq(templates.id, template.id));
      },
      ref: { templateId: template.id },
    };
  }
  const pkg = await findPackage(db, actor, owner.packageId, { forUpdate: opts.forChange });
  if (opts.forChange) {
    if (pkg.status !== "DRAFT") throw errors.conflict("Documents can be changed only while the package is a DRAFT");
    await assertNotLocked(db, actor, { type: "package", id: pkg.id });
  }
  return {
    columns: { templateId: null, packageId: pkg.id },
    owns: eq(documents.packageId, pkg.id),
    touch: async (tx) => {
      await tx.update(packages).set({ updatedAt: now() }).where(eq(packages.id, pkg.id));
    },
    ref: { packageId: pkg.id },
  };
}
