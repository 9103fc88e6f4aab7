import type { Metadata } from "next";
import Link from "next/link";
import { PackagesList } from "@/components/packages/packages-list";
import { PageHeader } from "@/components/shell/page-header";
import { buttonClasses } from "@/components/ui/button";

export const metadata: Metadata = { title: "Packages" };

/** Every member may list the packages they can see (all of them with canViewAllPackages). */
export default function PackagesPage() {
  return (
    <>
      <PageHeader
        title="Packages"
        description="Documents sent for signing: their status, who has signed, and what happens next."
        actions={
          <Link href="/packages/new" className={buttonClasses("primary", "md")}>
            New package
          </Link>
        }
      />
      <PackagesList />
    </>
  );
}
