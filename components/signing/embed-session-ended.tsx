import { Logo } from "@/components/shell/logo";

/** An embedded signing page whose single-use URL was already used, expired, or whose session has ended. */
export function EmbedSessionEnded() {
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center bg-zinc-50 px-4 py-12" data-signing-end="EMBED_ENDED">
      <Logo className="mb-8" />
      <div className="w-full max-w-md rounded-xl border border-zinc-200 bg-white p-8 text-center shadow-sm">
        <h1 className="text-xl font-semibold text-zinc-900">This signing session has ended</h1>
        <p className="mt-4 text-sm leading-6 text-zinc-700">
          Its link was already used or has expired. Go back to the page that showed this document and open it again.
        </p>
      </div>
    </main>
  );
}
