/**
 * A workspace's slug made from its name, "EMEA Sales" → "emea-sales": the suggestion the New workspace dialog
 * fills in and the slug `npm run admin -- create-workspace` gives when --slug is not given. The server's schema
 * (ZWorkspaceFields) still validates whatever slug arrives.
 */
export function slugFromName(name: string): string {
  return name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 50);
}
