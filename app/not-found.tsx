import Link from "next/link";
import { Logo } from "@/components/shell/logo";
import { NotFoundMessage } from "@/components/shell/not-found-message";
import { Card } from "@/components/ui/card";
import { getActiveSession } from "@/server/auth/session";
import { SignedInShell } from "./(admin)/signed-in-shell";

export const metadata = { title: "Page not found" };

/**
 * Any unknown address: the branded 404 with a way back — inside the app shell for a signed-in member (the
 * navigation stays), on the plain layout for anyone else.
 */
export default async function RootNotFound() {
  const session = await getActiveSession();
  if (session) {
    return (
      <SignedInShell session={session}>
        <Card className="mt-2">
          <NotFoundMessage signedIn />
        </Card>
      </SignedInShell>
    );
  }
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center px-4 py-12">
      <Link href="/" className="mb-8 rounded-sm">
        <Logo />
      </Link>
      <div className="w-full max-w-md rounded-xl border border-zinc-200 bg-white shadow-sm">
        <NotFoundMessage signedIn={false} />
      </div>
    </main>
  );
}
