/**
 * Why an otherwise active key (neither revoked nor expired) is refused with 401 by the /api/v1 pipeline.
 * One rule for both the pipeline (server/http/steps/authenticate.ts) and the owner's key list, so the list
 * cannot say "working" about a key the API refuses.
 */
import type { TKeyInoperativeReason } from "./schemas";

export type TKeyStanding = {
  /** The key's role currently holds API access. */
  roleApiAccess: boolean;
  /** The issuing user's account is marked deleted. */
  issuerDeleted: boolean;
  /** The issuing user still has a membership in the key's organisation. */
  issuerIsMember: boolean;
};

/**
 * The issuer's removal wins over the role: it cannot be undone for this key (re-adding the person revokes
 * their old keys), whereas giving the role API access again brings the key back.
 */
export function keyInoperativeReason(standing: TKeyStanding): TKeyInoperativeReason | null {
  if (standing.issuerDeleted || !standing.issuerIsMember) return "ISSUER_REMOVED";
  if (!standing.roleApiAccess) return "ROLE_WITHOUT_API_ACCESS";
  return null;
}
