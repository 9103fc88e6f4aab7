/**
 * The JSON of a packages list page, written directly: exactly `JSON.stringify(ZPackageList.parse(list))` (the
 * same keys in the schema's order, the same escapes), without zod walking 25 packages to copy them and a
 * generic stringify walking the copies. The packages list is the API's busiest read; its route answers with this
 * text (`JsonText`, server/http/route.ts) instead of passing the declared schema on every request.
 * package-list-json.test.ts holds the two equal, field by field, for nulls, metadata, quotes, control
 * characters, lone surrogates and a list read from the database. A new field of the summary must be added here
 * (that test fails until it is).
 */
import type { listPackages } from "./list-packages";

type TList = Awaited<ReturnType<typeof listPackages>>;
type TSummary = TList["packages"][number];

/** A string or null as JSON (`JSON.stringify` escapes a string exactly as the generic path does). */
const str = (value: string | null): string => (value === null ? "null" : JSON.stringify(value));

function summaryJson(p: TSummary): string {
  return (
    `{"id":${str(p.id)},"title":${str(p.title)},"status":${str(p.status)},"externalId":${str(p.externalId)},` +
    `"metadata":${JSON.stringify(p.metadata)},"templateId":${str(p.templateId)},"ownerUserId":${str(p.ownerUserId)},` +
    `"sequential":${p.sequential ? "true" : "false"},"sendAt":${str(p.sendAt)},"scheduleError":${str(p.scheduleError)},` +
    `"expiresAt":${str(p.expiresAt)},"expiredAt":${str(p.expiredAt)},"sentAt":${str(p.sentAt)},` +
    `"firstViewedAt":${str(p.firstViewedAt)},"completedAt":${str(p.completedAt)},"declinedAt":${str(p.declinedAt)},` +
    `"voidedAt":${str(p.voidedAt)},"createdAt":${str(p.createdAt)},"updatedAt":${str(p.updatedAt)},` +
    `"recipientCounts":{"total":${int(p.recipientCounts.total)},"completed":${int(p.recipientCounts.completed)}}}`
  );
}

/** An integer as JSON; anything else is a bug the schema would have refused (500), so it still is. */
function int(value: number): string {
  if (!Number.isSafeInteger(value)) throw new Error(`packages list: ${String(value)} is not an integer`);
  return String(value);
}

export function packageListJson(list: TList): string {
  let packages = "";
  for (const p of list.packages) packages += (packages ? "," : "") + summaryJson(p);
  return `{"packages":[${packages}],"totalCount":${int(list.totalCount)},"page":${int(list.page)},"pageSize":${int(list.pageSize)}}`;
}
