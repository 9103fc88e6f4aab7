import Link from "next/link";
import { RedocView } from "@/components/api-reference/redoc-view";
import { Logo } from "@/components/shell/logo";

export const metadata = { title: "API reference" };

/**
 * The API reference: Redoc renders the same document /api-reference/openapi.json serves (built from the
 * operation objects), so every operation, schema, example and error answer shows, and none can drift.
 */
export default function ApiReferencePage() {
  return (
    <div className="min-h-dvh bg-white">
      <header className="flex flex-wrap items-center gap-x-6 gap-y-2 border-b border-zinc-200 px-5 py-3">
        <Link href="/" className="rounded-sm">
          <Logo />
        </Link>
        <nav aria-label="Documentation" className="flex flex-wrap gap-x-5 gap-y-1 text-sm">
          <Link className="font-medium text-brand-700 hover:underline" href="/api-reference/webhooks">
            Quickstart &amp; webhooks guide
          </Link>
          <a className="text-zinc-700 hover:underline" href="/api-reference/openapi.json">
            openapi.json
          </a>
        </nav>
      </header>
      <main>
        <RedocView specUrl="/api-reference/openapi.json" />
      </main>
    </div>
  );
}
