"use client";

import { useId, useState } from "react";
import { errorMessage } from "@/components/lib/api-client";
import { cn } from "@/components/ui/cn";
import { DropArea, UploadList, UploadRow, useFileDrop } from "@/components/ui/file-uploads";
import { formatBytes } from "./format-bytes";
import { useUploadLibraryDocument } from "./query";

type TUpload = { key: string; fileName: string; progress: number; state: "uploading" | "done" | "error"; error?: string };

/** The document's name in the library: the file's name without its `.pdf`. */
function nameOf(file: File): string {
  return (
    file.name
      .replace(/\.pdf$/i, "")
      .trim()
      .slice(0, 200) || "Untitled document"
  );
}

/**
 * Drop PDFs here or pick them: each is streamed to the server with a progress bar, then checked there (only
 * a PDF that opens is kept). Oversized files are refused before they are sent.
 */
export function UploadZone({ maxBytes }: { maxBytes: number }) {
  const inputId = useId();
  const [uploads, setUploads] = useState<TUpload[]>([]);
  const upload = useUploadLibraryDocument();

  const patch = (key: string, changes: Partial<TUpload>) => setUploads((list) => list.map((u) => (u.key === key ? { ...u, ...changes } : u)));

  function start(files: FileList | File[]) {
    for (const file of Array.from(files)) {
      const key = `${file.name}-${file.size}-${Math.random().toString(36).slice(2)}`;
      if (file.size > maxBytes) {
        setUploads((list) => [...list, { key, fileName: file.name, progress: 0, state: "error", error: `Larger than the limit of ${formatBytes(maxBytes)}` }]);
        continue;
      }
      setUploads((list) => [...list, { key, fileName: file.name, progress: 0, state: "uploading" }]);
      // mutateAsync, not mutate with callbacks: mutate's callbacks fire for the latest call only, and several
      // files upload at once.
      upload.mutateAsync({ file, name: nameOf(file), onProgress: (progress) => patch(key, { progress }) }).then(
        () => patch(key, { state: "done", progress: 1 }),
        (error: unknown) => patch(key, { state: "error", error: errorMessage(error) ?? "Upload failed" }),
      );
    }
  }

  const drop = useFileDrop(start);

  return (
    <div className="space-y-3">
      <DropArea over={drop.over} {...drop.handlers} data-testid="library-drop-zone" className="px-6 py-8">
        <svg viewBox="0 0 24 24" className="size-8 text-zinc-400" fill="none" stroke="currentColor" strokeWidth="1.6" aria-hidden="true">
          <path d="M12 16V4m0 0-4 4m4-4 4 4" strokeLinecap="round" strokeLinejoin="round" />
          <path d="M4 16v2a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-2" strokeLinecap="round" />
        </svg>
        <p className="text-sm text-zinc-700">
          Drag PDF files here, or{" "}
          <label htmlFor={inputId} className="cursor-pointer font-medium text-brand-700 underline-offset-2 hover:underline focus-within:underline">
            choose files
          </label>
        </p>
        <p className="text-xs text-zinc-500">PDF only, up to {formatBytes(maxBytes)} each</p>
        <input
          id={inputId}
          type="file"
          accept="application/pdf,.pdf"
          multiple
          className="sr-only"
          data-testid="library-file-input"
          onChange={(e) => {
            if (e.target.files?.length) start(e.target.files);
            e.target.value = "";
          }}
        />
      </DropArea>
      {uploads.length ? (
        <UploadList>
          {uploads.map((u) => (
            <UploadRow
              key={u.key}
              testId="library-upload"
              name={u.fileName}
              progress={u.progress}
              error={u.state === "error" ? u.error : undefined}
              done={u.state === "done"}
              status={
                <span className={cn("shrink-0 text-xs", u.state === "error" ? "text-red-700" : u.state === "done" ? "text-emerald-700" : "text-zinc-500")}>
                  {u.state === "uploading" ? `${Math.round(u.progress * 100)}%` : u.state === "done" ? "Added" : "Refused"}
                </span>
              }
            />
          ))}
        </UploadList>
      ) : null}
    </div>
  );
}
