import Link from "next/link";
import { buttonClasses } from "@/components/ui/button";

/**
 * The 403 message, shown by the forbidden() boundaries (app/forbidden.tsx, app/(admin)/forbidden.tsx) when a
 * signed-in member opens a page only the owner may use. The response status is 403 as well.
 */
export function Forbidden() {
  return (
    <div className="px-6 py-12 text-center" role="alert">
      <p className="text-sm font-semibold tracking-wide text-red-700">403 · Forbidden</p>
      <h1 className="mt-2 text-lg font-semibold text-zinc-900">Only the organisation&apos;s owner can open this page.</h1>
      <p className="mt-1 text-sm text-zinc-500">Ask the owner of your organisation if you need access.</p>
      <Link href="/" className={buttonClasses("secondary", "md", "mt-6")}>
        Back to the overview
      </Link>
    </div>
  );
}
