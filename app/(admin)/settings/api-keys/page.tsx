import type { Metadata } from "next";
import { ApiKeysPanel } from "@/components/api-keys/api-keys-panel";
import { PageHeader } from "@/components/shell/page-header";
import { requireOwnerActor } from "@/server/auth/session";

export const metadata: Metadata = { title: "API keys" };

export default async function ApiKeysPage() {
  await requireOwnerActor();
  return (
    <>
      <PageHeader
        title="API keys"
        description={
          <>
            Keys let your servers call the Foliosign API (<code className="font-mono text-xs">Authorization: Bearer fsk_…</code>). A key&apos;s value is shown
            once, when it is created; only its first characters are kept for display.
          </>
        }
      />
      <ApiKeysPanel />
    </>
  );
}
