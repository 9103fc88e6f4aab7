import type { Db } from "@/server/db/client";
import { findPackage } from "./find-package";
import { loadPackageView } from "./load-package-view";
import type { TPackageActor } from "./package-actor";
import type { TPackage, TPackageRef } from "./schemas";

/** A package the actor can see, with its recipient sessions in signing order and its documents; else 404. */
export async function getPackage(db: Db, actor: TPackageActor, input: TPackageRef): Promise<TPackage> {
  return loadPackageView(db, await findPackage(db, actor, input.packageId));
}
