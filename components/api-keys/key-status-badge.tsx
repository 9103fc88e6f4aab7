import { formatDate, formatDateTime } from "@/components/lib/format";
import { Badge } from "@/components/ui/badge";
import type { TApiKey } from "./query";

type TInoperativeReason = NonNullable<TApiKey["inoperativeReason"]>;

/** The domain says why an Active key answers 401; these are only its words for the owner. */
const INOPERATIVE: Record<TInoperativeReason, { label: string; explanation: string }> = {
  ISSUER_REMOVED: {
    label: "Not working: issuer removed",
    explanation: "The person who issued this key is no longer a member, so the API refuses it (401). Create a new key and revoke this one.",
  },
  ROLE_WITHOUT_API_ACCESS: {
    label: "Not working: role has no API access",
    explanation: "This key's role no longer has API access, so the API refuses it (401). Give the role API access again in Roles, or revoke the key.",
  },
};

/** Active, "Expired on <date, time>" or "Revoked on <date>", as the domain computed it; plus why an Active key is refused. */
export function KeyStatusBadge({ apiKey }: { apiKey: Pick<TApiKey, "status" | "statusAt" | "inoperativeReason"> }) {
  if (apiKey.status === "REVOKED") return <Badge tone="danger">Revoked on {formatDate(apiKey.statusAt)}</Badge>;
  // The expiry instant is the start of the day after the chosen last day: shown with its time, not as a bare date.
  if (apiKey.status === "EXPIRED") return <Badge tone="warning">Expired on {formatDateTime(apiKey.statusAt)}</Badge>;
  if (!apiKey.inoperativeReason) return <Badge tone="success">Active</Badge>;
  const { label, explanation } = INOPERATIVE[apiKey.inoperativeReason];
  return (
    <div className="flex max-w-sm flex-col items-start gap-1 sm:min-w-72">
      <div className="flex flex-wrap gap-1">
        <Badge tone="neutral">Active</Badge>
        <Badge tone="warning" className="whitespace-nowrap">
          <span aria-hidden="true" className="mr-1">
            ⚠
          </span>
          {label}
        </Badge>
      </div>
      <p className="text-xs text-amber-800">{explanation}</p>
    </div>
  );
}
