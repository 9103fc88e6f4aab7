import { Alert } from "@/components/ui/alert";

/**
 * The overview's notice while no time-stamping authority is configured (issue 20): seals are PAdES B-B, with
 * this server's clock as their only time. An owner (who runs the installation, or asks who does) is told how to
 * change that; a member is told what it means and whom to ask — not the server's settings.
 */
export function NoTsaNotice({ owner }: { owner: boolean }) {
  return (
    <Alert tone="warning" title="No time-stamping authority: seals carry this server's clock only" className="mb-6">
      {owner ? <OwnerText /> : <MemberText />}
    </Alert>
  );
}

function MemberText() {
  return (
    <p data-testid="no-tsa-notice">
      Signed PDFs are sealed without an independent time: nothing but this server proves when they were signed. Your organisation&rsquo;s owner can add a
      time-stamping authority.
    </p>
  );
}

function OwnerText() {
  return (
    <p data-testid="no-tsa-notice">
      Signed PDFs are sealed at PAdES B-B: nothing proves when they were signed, and once the sealing certificate expires a validator can no longer tell that
      the seal was made while it was valid. Set <code className="font-mono">TSA_URLS</code> to one or more RFC 3161 time-stamping authorities (comma-separated,
      tried in order) and restart: new seals then reach B-LTA, long-term verifiable. See the README, &ldquo;Time-stamped seals&rdquo;.
    </p>
  );
}
