import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { PackageDetail } from "@/components/packages/package-detail";
import { requireSessionActor } from "@/server/auth/session";
import { getDb } from "@/server/db/client";
import { findPackage } from "@/server/domain/packages/find-package";
import { AppError } from "@/server/lib/errors";

export const metadata: Metadata = { title: "Package" };

/** 404 for a package that is not in the current workspace or that the member may not see. */
export default async function PackagePage({ params }: { params: Promise<{ packageId: string }> }) {
  const actor = await requireSessionActor();
  const db = await getDb();
  const { packageId } = await params;
  // Only "not found" is a 404; any other failure is a real error and must surface as one.
  const found = await findPackage(db, actor, packageId).catch((err: unknown) => {
    if (err instanceof AppError && err.kind === "NOT_FOUND") return null;
    throw err;
  });
  if (!found) notFound();
  return <PackageDetail packageId={packageId} canSend={actor.role.permissions.canSendPackages} />;
}
