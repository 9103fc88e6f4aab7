import Link from "next/link";
import { buildOpenApiDocument } from "@/server/http/openapi";

export const dynamic = "force-dynamic";
export const metadata = { title: "API reference · Foliosign" };

type TSchema = Record<string, unknown>;
type TParam = { name: string; in: string; required?: boolean; description?: string; schema?: TSchema };
type TOp = {
  operationId: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: TParam[];
  requestBody?: { content: Record<string, { schema: TSchema }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: TSchema }> }>;
};

const METHOD_STYLE: Record<string, string> = {
  get: "bg-sky-100 text-sky-800",
  post: "bg-emerald-100 text-emerald-800",
  patch: "bg-amber-100 text-amber-800",
  put: "bg-amber-100 text-amber-800",
  delete: "bg-rose-100 text-rose-800",
};

function SchemaBlock({ schema }: { schema: TSchema }) {
  return (
    <pre className="mt-1 max-h-80 overflow-auto rounded-md bg-slate-950 p-3 text-xs leading-relaxed text-slate-100">
      {JSON.stringify(schema, null, 2)}
    </pre>
  );
}

/** A readable rendering of the same document that /api-reference/openapi.json serves. */
export default function ApiReferencePage() {
  const doc = buildOpenApiDocument();
  const byTag = new Map<string, { method: string; path: string; op: TOp }[]>();
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, raw] of Object.entries(item as Record<string, TOp>)) {
      const tag = raw.tags?.[0] ?? "Other";
      byTag.set(tag, [...(byTag.get(tag) ?? []), { method, path, op: raw }]);
    }
  }
  return (
    <main className="mx-auto max-w-5xl px-6 py-10">
      <header className="mb-8 border-b border-slate-200 pb-6">
        <h1 className="text-3xl font-semibold text-slate-900">Foliosign API reference</h1>
        <p className="mt-2 max-w-3xl text-slate-600">{doc.info.description}</p>
        <p className="mt-3 text-sm text-slate-600">
          Version {doc.info.version} · Server <code className="rounded bg-slate-100 px-1">{doc.servers?.[0]?.url}</code> ·
          Authenticate with <code className="rounded bg-slate-100 px-1">Authorization: Bearer fsk_…</code>
        </p>
        <nav className="mt-4 flex flex-wrap gap-4 text-sm">
          <a className="font-medium text-indigo-700 underline" href="/api-reference/openapi.json">
            openapi.json
          </a>
          <Link className="font-medium text-indigo-700 underline" href="/api-reference/webhooks">
            Webhooks: signatures, retries, health
          </Link>
          {[...byTag.keys()].map((tag) => (
            <a key={tag} className="text-slate-700 hover:underline" href={`#${tag}`}>
              {tag}
            </a>
          ))}
        </nav>
      </header>
      {[...byTag].map(([tag, ops]) => (
        <section key={tag} id={tag} className="mb-10">
          <h2 className="mb-4 text-xl font-semibold text-slate-900">{tag}</h2>
          <div className="space-y-4">
            {ops.map(({ method, path, op }) => (
              <details key={op.operationId} id={op.operationId} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
                <summary className="flex cursor-pointer flex-wrap items-center gap-3">
                  <span className={`rounded px-2 py-0.5 font-mono text-xs font-bold uppercase ${METHOD_STYLE[method] ?? ""}`}>
                    {method}
                  </span>
                  <code className="font-mono text-sm text-slate-900">{path}</code>
                  <span className="text-sm text-slate-600">{op.summary}</span>
                </summary>
                <div className="mt-4 space-y-4 text-sm">
                  <p className="text-slate-500">
                    operationId <code>{op.operationId}</code>
                  </p>
                  {op.description ? <p className="text-slate-700">{op.description}</p> : null}
                  {op.parameters?.length ? (
                    <div>
                      <h3 className="font-medium text-slate-900">Parameters</h3>
                      <table className="mt-1 w-full text-left">
                        <tbody>
                          {op.parameters.map((p) => (
                            <tr key={`${p.in}-${p.name}`} className="border-t border-slate-100">
                              <td className="py-1 pr-3 font-mono">{p.name}</td>
                              <td className="py-1 pr-3 text-slate-500">{p.in}{p.required ? ", required" : ""}</td>
                              <td className="py-1 text-slate-700">{p.description ?? ""}</td>
                            </tr>
                          ))}
                        </tbody>
                      </table>
                    </div>
                  ) : null}
                  {op.requestBody ? (
                    <div>
                      <h3 className="font-medium text-slate-900">Request body (application/json)</h3>
                      <SchemaBlock schema={op.requestBody.content["application/json"]?.schema ?? {}} />
                    </div>
                  ) : null}
                  <div>
                    <h3 className="font-medium text-slate-900">Responses</h3>
                    <ul className="mt-1 space-y-1">
                      {Object.entries(op.responses).map(([status, r]) => (
                        <li key={status}>
                          <span className="font-mono font-semibold">{status}</span>{" "}
                          <span className="text-slate-700">{r.description}</span>
                          {status.startsWith("2") && r.content?.["application/json"] ? (
                            <SchemaBlock schema={r.content["application/json"].schema} />
                          ) : null}
                        </li>
                      ))}
                    </ul>
                  </div>
                </div>
              </details>
            ))}
          </div>
        </section>
      ))}
    </main>
  );
}
