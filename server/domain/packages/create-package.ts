import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { packages, recipientSessions, signingGroupMembers, signingGroups } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { EMPTY_GROUP_MESSAGE } from "@/server/domain/templates/assert-signing-group";
import { withEvents } from "@/server/domain/transaction";
import { isUniqueViolation } from "@/server/domain/organisation/unique-violation";
import { now } from "@/server/lib/clock";
import { errors } from "@/server/lib/errors";
import { newId } from "@/server/lib/ids";
import { assertExternalIdFree } from "./assert-external-id-free";
import { assertRecipientLimit } from "./assert-recipient-limit";
import { auditChange } from "@/server/domain/audit/audit-change";
import { loadPackageView } from "./load-package-view";
import { resolveMetadata } from "./resolve-metadata";
import { authenticationColumns } from "./recipient-authentication";
import type { TCreatePackage, TPackage } from "./schemas";

/**
 * A blank DRAFT without a template: recipients in the given order (`order`, then list order), no documents yet.
 * An `externalId` already used in the workspace is 409 (only from-template answers the existing package).
 */
export async function createPackage(db: Db, actor: TActor, input: TCreatePackage): Promise<TPackage> {
  // Access codes are hashed (scrypt) before the transaction opens.
  const auth = await Promise.all(input.recipients.map((r) => authenticationColumns(r.authentication, r.identity)));
  try {
    return await withEvents(db, async (tx) => {
      await assertRecipientLimit(tx, actor.organisation.id, input.recipients.length);
      if (input.externalId) await assertExternalIdFree(tx, actor.workspace.id, input.externalId);
      const metadata = await resolveMetadata(tx, actor.workspace.id, null, input.metadata);
      const groupIds = [...new Set(input.recipients.flatMap((r) => (r.signingGroupId ? [r.signingGroupId] : [])))];
      if (groupIds.length > 0) {
        const found = await tx
          // The group's id written qualified: in a one-table select drizzle writes columns bare, which inside the
          // subquery would name the member's own id.
          .select({
            id: signingGroups.id,
            members: sql<number>`(select count(*)::int from ${signingGroupMembers} m where m.group_id = ${signingGroups}.${sql.identifier(signingGroups.id.name)})`,
          })
          .from(signingGroups)
          .where(and(eq(signingGroups.workspaceId, actor.workspace.id), inArray(signingGroups.id, groupIds)));
        const members = new Map(found.map((g) => [g.id, g.members]));
        const details: Record<string, string[]> = {};
        input.recipients.forEach((r, i) => {
          if (!r.signingGroupId) return;
          const n = members.get(r.signingGroupId);
          if (n === undefined) details[`recipients.${i}.signingGroupId`] = ["Unknown signing group"];
          else if (n === 0) details[`recipients.${i}.signingGroupId`] = [EMPTY_GROUP_MESSAGE];
        });
        if (Object.keys(details).length > 0) throw errors.validation(details);
      }
      const at = now();
      const [pkg] = await tx
        .insert(packages)
        .values({
          id: newId("pkg"),
          organisationId: actor.organisation.id,
          workspaceId: actor.workspace.id,
          title: input.title,
          externalId: input.externalId ?? null,
          metadata,
          ownerUserId: actor.user.id,
          createdByApiKeyId: actor.apiKey?.id ?? null,
          sequential: input.sequential,
          message: input.message ?? null,
          reminders: input.reminders ?? null,
          expiresAt: input.expiresAt ?? null,
          createdAt: at,
          updatedAt: at,
        })
        .returning();
      // Stable sort: equal or missing `order` keeps the list order.
      const ordered = input.recipients.map((r, i) => ({ r, key: r.order ?? Number.MAX_SAFE_INTEGER, i })).sort((a, b) => a.key - b.key || a.i - b.i);
      await tx.insert(recipientSessions).values(
        ordered.map(({ r, i }, position) => ({
          ...auth[i],
          id: newId("ses"),
          packageId: pkg!.id,
          position,
          email: r.email,
          name: r.name ?? null,
          signingGroupId: r.signingGroupId ?? null,
          createdAt: at,
          updatedAt: at,
        })),
      );
      await auditChange(tx, actor, pkg!, "package.created", { title: pkg!.title, recipients: input.recipients.length });
      return loadPackageView(tx, pkg!);
    });
  } catch (err) {
    // Two creates raced for one externalId: the loser's insert hit the unique index.
    if (isUniqueViolation(err)) throw errors.conflict("externalId is already used by another package");
    throw err;
  }
}
