import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { users } from "@/server/db/schema";
import type { TMailPackage } from "@/server/domain/mail/queue-package-mail";
import type { TPackageRow } from "./find-package";

/** What a package's messages need: its title, message, expiry and its owner (the sender, who gets the owner's notices). */
export async function loadMailPackage(tx: Db, pkg: TPackageRow): Promise<TMailPackage> {
  const [owner] = await tx.select({ id: users.id, email: users.email, name: users.name }).from(users).where(eq(users.id, pkg.ownerUserId));
  if (!owner) throw new Error(`package ${pkg.id} has no owner row`);
  return mailPackageOf(pkg, owner);
}

/** The same, with the owner read by the caller (with something else: issue 26, statements per request). */
export function mailPackageOf(pkg: TPackageRow, owner: { id: string; email: string; name: string }): TMailPackage {
  return {
    id: pkg.id,
    organisationId: pkg.organisationId,
    workspaceId: pkg.workspaceId,
    title: pkg.title,
    message: pkg.message,
    expiresAt: pkg.expiresAt,
    owner: { userId: owner.id, email: owner.email, name: owner.name },
  };
}
