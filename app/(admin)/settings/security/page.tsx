import type { Metadata } from "next";
import { IpAllowlistEditor } from "@/components/security/ip-allowlist-editor";
import { PageHeader } from "@/components/shell/page-header";
import { requireOwnerActor } from "@/server/auth/session";

export const metadata: Metadata = { title: "Security" };

export default async function SecurityPage() {
  await requireOwnerActor();
  return (
    <>
      <PageHeader title="Security" description="Restrict where your API keys may be used from." />
      <IpAllowlistEditor />
    </>
  );
}
