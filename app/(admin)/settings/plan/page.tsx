import type { Metadata } from "next";
import { PlanPanel } from "@/components/plan/plan-panel";
import { PageHeader } from "@/components/shell/page-header";

export const metadata: Metadata = { title: "Plan" };

export default function PlanPage() {
  return (
    <>
      <PageHeader title="Plan" description="What your organisation's plan includes and how many packages it may send." />
      <PlanPanel />
    </>
  );
}
