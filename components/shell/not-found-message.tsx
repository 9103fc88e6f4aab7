import Link from "next/link";
import { buttonClasses } from "@/components/ui/button";

/**
 * The 404 message, shown by the not-found boundaries (app/not-found.tsx outside the shell,
 * app/(admin)/not-found.tsx inside it), with a way back. The response status is 404.
 */
export function NotFoundMessage({ signedIn }: { signedIn: boolean }) {
  return (
    <div className="px-6 py-12 text-center" role="alert">
      <p className="text-sm font-semibold tracking-wide text-brand-700">404 · Not found</p>
      <h1 className="mt-2 text-lg font-semibold text-zinc-900">There is no page at this address.</h1>
      <p className="mt-1 text-sm text-zinc-500">The link may be mistyped, or what it pointed to was deleted or belongs to another workspace.</p>
      <div className="mt-6 flex flex-wrap justify-center gap-3">
        <Link href="/" className={buttonClasses("primary", "md")}>
          {signedIn ? "Back to the overview" : "Go to Foliosign"}
        </Link>
        <Link href="/api-reference" className={buttonClasses("secondary", "md")}>
          API reference
        </Link>
      </div>
    </div>
  );
}
