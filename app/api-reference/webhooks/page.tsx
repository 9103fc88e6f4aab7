import { readFile } from "node:fs/promises";
import path from "node:path";
import Link from "next/link";
import { Marked } from "marked";
import { Logo } from "@/components/shell/logo";

export const dynamic = "force-dynamic";
export const metadata = { title: "Webhooks guide · API reference" };

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/<[^>]+>/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

/**
 * Headings get ids (the quickstart links to #verifying-the-signature) and tables a scroll box of their own, so
 * a wide table scrolls inside the page instead of making the whole page pan sideways on a phone.
 */
const marked = new Marked({
  renderer: {
    heading({ tokens, depth }) {
      const inner = this.parser.parseInline(tokens);
      return `<h${depth} id="${slug(inner)}">${inner}</h${depth}>\n`;
    },
  },
});

/** docs/webhooks.md rendered: the same text the repository ships (and whose snippets the tests run). */
export default async function WebhooksDocPage() {
  const source = await readFile(path.join(process.cwd(), "docs", "webhooks.md"), "utf8").catch(() => null);
  const rendered = source ? await marked.parse(source) : "<p>The webhook documentation is not available.</p>";
  const html = rendered.replaceAll("<table>", '<div class="doc-table"><table>').replaceAll("</table>", "</table></div>");
  return (
    <div className="min-h-dvh bg-white">
      <header className="flex flex-wrap items-center gap-x-6 gap-y-2 border-b border-zinc-200 px-5 py-3">
        <Link href="/" className="rounded-sm">
          <Logo />
        </Link>
        <nav aria-label="Documentation" className="flex flex-wrap gap-x-5 gap-y-1 text-sm">
          <Link className="font-medium text-brand-700 hover:underline" href="/api-reference">
            API reference
          </Link>
          <a className="text-zinc-700 hover:underline" href="/api-reference/openapi.json">
            openapi.json
          </a>
        </nav>
      </header>
      <main className="mx-auto max-w-4xl px-5 py-8 md:px-6 md:py-10">
        <article
          className={[
            "min-w-0 leading-relaxed break-words text-zinc-800",
            "[&_h1]:mb-4 [&_h1]:text-3xl [&_h1]:font-semibold [&_h2]:mt-10 [&_h2]:mb-3 [&_h2]:text-2xl [&_h2]:font-semibold",
            "[&_h3]:mt-8 [&_h3]:mb-2 [&_h3]:text-lg [&_h3]:font-semibold [&_p]:my-3 [&_ul]:my-3 [&_ul]:list-disc [&_ul]:pl-6 [&_ol]:list-decimal [&_ol]:pl-6",
            "[&_a]:text-brand-700 [&_a]:underline [&_code]:rounded [&_code]:bg-zinc-100 [&_code]:px-1 [&_code]:text-sm",
            "[&_pre]:my-4 [&_pre]:max-w-full [&_pre]:overflow-x-auto [&_pre]:rounded-md [&_pre]:bg-zinc-950 [&_pre]:p-4 [&_pre]:text-[13px]",
            "[&_pre_code]:bg-transparent [&_pre_code]:p-0 [&_pre_code]:text-zinc-100 [&_pre_code]:break-normal",
            "[&_.doc-table]:my-4 [&_.doc-table]:max-w-full [&_.doc-table]:overflow-x-auto [&_table]:text-sm",
            "[&_th]:border-b [&_th]:px-2 [&_th]:py-1 [&_th]:text-left [&_td]:border-b [&_td]:border-zinc-100 [&_td]:px-2 [&_td]:py-1 [&_td]:align-top",
          ].join(" ")}
          dangerouslySetInnerHTML={{ __html: html }}
        />
      </main>
    </div>
  );
}
