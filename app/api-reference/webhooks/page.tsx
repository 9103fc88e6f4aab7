import { readFile } from "node:fs/promises";
import path from "node:path";
import Link from "next/link";
import { marked } from "marked";

export const dynamic = "force-dynamic";
export const metadata = { title: "Webhooks · Foliosign API reference" };

/** docs/webhooks.md rendered: the same text the repository ships (and whose snippet the tests run). */
export default async function WebhooksDocPage() {
  const source = await readFile(path.join(process.cwd(), "docs", "webhooks.md"), "utf8").catch(() => null);
  const html = source ? await marked.parse(source) : "<p>The webhook documentation is not available.</p>";
  return (
    <main className="mx-auto max-w-4xl px-6 py-10">
      <Link href="/api-reference" className="text-sm text-indigo-700 underline">
        ← API reference
      </Link>
      <article className={[
          "mt-6 text-slate-800 leading-relaxed",
          "[&_h1]:mb-4 [&_h1]:text-3xl [&_h1]:font-semibold [&_h2]:mt-8 [&_h2]:mb-3 [&_h2]:text-xl [&_h2]:font-semibold",
          "[&_h3]:mt-6 [&_h3]:mb-2 [&_h3]:font-semibold [&_p]:my-3 [&_ul]:my-3 [&_ul]:list-disc [&_ul]:pl-6 [&_ol]:list-decimal [&_ol]:pl-6",
          "[&_code]:rounded [&_code]:bg-slate-100 [&_code]:px-1 [&_code]:text-sm [&_pre]:my-4 [&_pre]:overflow-auto [&_pre]:rounded-md",
          "[&_pre]:bg-slate-950 [&_pre]:p-4 [&_pre_code]:bg-transparent [&_pre_code]:text-slate-100 [&_table]:my-4 [&_table]:text-sm",
          "[&_th]:border-b [&_th]:px-2 [&_th]:py-1 [&_th]:text-left [&_td]:border-b [&_td]:border-slate-100 [&_td]:px-2 [&_td]:py-1",
        ].join(" ")} dangerouslySetInnerHTML={{ __html: html }} />
    </main>
  );
}
