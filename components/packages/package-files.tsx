import type { TPackage } from "@/server/domain/packages/schemas";
import { Alert } from "@/components/ui/alert";

/**
 * The package page's files panel: while sealing is due, what it is doing (and why the last attempt failed and
 * when the next one runs); once COMPLETED, the three downloads (the app twins of ops 23–25).
 */
export function PackageFiles({ pkg }: { pkg: Pick<TPackage, "id" | "status" | "sealing"> }) {
  const { sealing } = pkg;
  if (sealing) {
    if (sealing.state === "RETRYING") {
      const next = sealing.nextAttemptAt ? new Date(sealing.nextAttemptAt).toLocaleString() : "soon";
      return (
        <Alert tone="warning" title="Sealing failed">
          {sealing.lastError ?? "The last attempt failed."} Retrying at {next} (attempt {sealing.attempts + 1}).
        </Alert>
      );
    }
    return <Alert title="Sealing">Every recipient has signed. The sealed PDFs and the certificate are being made.</Alert>;
  }
  if (pkg.status !== "COMPLETED") return null;
  const base = `/api/app/packages/${encodeURIComponent(pkg.id)}`;
  const link = "inline-flex items-center rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm font-medium text-zinc-900 hover:bg-zinc-50";
  return (
    <nav aria-label="Signed files" className="flex flex-wrap gap-2">
      <a className={link} href={`${base}/download`} download>
        Download signed PDF
      </a>
      <a className={link} href={`${base}/download/zip`} download>
        Download zip
      </a>
      <a className={link} href={`${base}/certificate`} download>
        Certificate
      </a>
    </nav>
  );
}
