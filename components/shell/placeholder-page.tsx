import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "./page-header";

/** A page whose feature is not built yet: it says what will be there. */
export function PlaceholderPage({ title, whatWillBeHere }: { title: string; whatWillBeHere: string }) {
  return (
    <>
      <PageHeader title={title} />
      <Card>
        <EmptyState title="Coming soon" description={whatWillBeHere} />
      </Card>
    </>
  );
}
