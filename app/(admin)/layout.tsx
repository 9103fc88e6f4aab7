import type { ReactNode } from "react";
import { requireActiveSession } from "@/server/auth/session";
import { SignedInShell } from "./signed-in-shell";

/** Every signed-in page: no session → /signin (or /setup on a fresh install). */
export default async function AdminLayout({ children }: { children: ReactNode }) {
  return <SignedInShell session={await requireActiveSession()}>{children}</SignedInShell>;
}
