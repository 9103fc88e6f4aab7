import type { Metadata } from "next";
import { ReadinessReport } from "@/components/readiness/readiness-report";
import { SendTestMessage } from "@/components/readiness/send-test-message";
import { PageHeader } from "@/components/shell/page-header";
import { buttonClasses } from "@/components/ui/button";
import { requireOwnerActor } from "@/server/auth/session";
import { getDb } from "@/server/db/client";
import { readinessContext, runReadiness } from "@/server/domain/readiness/run-readiness";

export const metadata: Metadata = { title: "Readiness" };
export const dynamic = "force-dynamic";

/** Settings → Readiness (owners): the same checks as `npm run doctor`, run afresh on every visit. */
export default async function ReadinessPage() {
  const actor = await requireOwnerActor();
  const ctx = readinessContext(await getDb());
  const report = await runReadiness(ctx);
  return (
    <>
      <PageHeader
        title="Readiness"
        description={
          <>
            Is this installation ready for real signers? Each check says what it found and what to do. The same report, to paste into an issue:{" "}
            <code className="font-mono">npm run doctor -- --json</code>.
          </>
        }
        actions={
          // A full load: every visit runs the checks afresh.
          <a href="/settings/readiness" className={buttonClasses("secondary")}>
            Check again
          </a>
        }
      />
      <ReadinessReport report={report} extras={ctx.env.SMTP_URL ? { smtp: <SendTestMessage email={actor.user.email} /> } : {}} />
    </>
  );
}
