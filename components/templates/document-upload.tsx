"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRef, useState, type DragEvent } from "react";
import { errorMessage } from "@/components/lib/api-client";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { templateKeys, useAddDocument, type TAddedDocument } from "./query";

const PDF = "application/pdf";
const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

type TUpload = { key: number; name: string; progress: number; state: "uploading" | "checking" | "failed"; error?: string };

function contentTypeOf(file: File): typeof PDF | typeof DOCX | null {
  if (file.type === PDF || /\.pdf$/i.test(file.name)) return PDF;
  if (file.type === DOCX || /\.docx$/i.test(file.name)) return DOCX;
  return null;
}

/** PUTs the bytes to the one-time upload URL, reporting progress; resolves on 2xx, rejects with the server's message. */
function putFile(url: string, file: File, contentType: string, onProgress: (fraction: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("PUT", url);
    xhr.setRequestHeader("Content-Type", contentType);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) return resolve();
      let message = `Upload failed (${xhr.status})`;
      try {
        message = (JSON.parse(xhr.responseText) as { error?: string }).error ?? message;
      } catch {
        // Not JSON (a proxy's page): the status says enough.
      }
      reject(new Error(message));
    };
    xhr.onerror = () => reject(new Error("The upload was interrupted. Check your connection and try again."));
    xhr.send(file);
  });
}

/** Drop PDF or Word files here, or choose them: each is registered, then uploaded with a progress bar. */
export function DocumentUpload({ templateId, disabled }: { templateId: string; disabled: boolean }) {
  const qc = useQueryClient();
  const add = useAddDocument(templateId);
  const input = useRef<HTMLInputElement>(null);
  const seq = useRef(0);
  const [uploads, setUploads] = useState<TUpload[]>([]);
  const [over, setOver] = useState(false);

  const patch = (key: number, change: Partial<TUpload>) => setUploads((list) => list.map((u) => (u.key === key ? { ...u, ...change } : u)));

  async function upload(file: File) {
    const key = ++seq.current;
    setUploads((list) => [...list, { key, name: file.name, progress: 0, state: "uploading" }]);
    const contentType = contentTypeOf(file);
    if (!contentType) return patch(key, { state: "failed", error: "Only PDF and Word (.docx) files can be added." });
    let added: TAddedDocument;
    try {
      added = await add.mutateAsync({ name: file.name, fileSize: file.size, contentType });
    } catch (err) {
      return patch(key, { state: "failed", error: errorMessage(err) ?? "The document could not be added." });
    }
    if (!added.uploadUrl) return setUploads((list) => list.filter((u) => u.key !== key));
    try {
      await putFile(added.uploadUrl, file, contentType, (progress) => patch(key, { progress, state: progress >= 1 ? "checking" : "uploading" }));
      setUploads((list) => list.filter((u) => u.key !== key));
    } catch (err) {
      patch(key, { state: "failed", error: err instanceof Error ? err.message : "Upload failed" });
    } finally {
      await qc.invalidateQueries({ queryKey: templateKeys.template(templateId), exact: true });
    }
  }

  function addFiles(files: FileList | null) {
    if (!files) return;
    for (const file of Array.from(files)) void upload(file);
  }

  function drop(e: DragEvent) {
    e.preventDefault();
    setOver(false);
    if (!disabled) addFiles(e.dataTransfer.files);
  }

  return (
    <div className="space-y-3">
      <div
        onDragOver={(e) => {
          e.preventDefault();
          if (!disabled) setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={drop}
        data-testid="upload-dropzone"
        className={cn(
          "flex flex-col items-center justify-center gap-2 rounded-lg border-2 border-dashed px-4 py-6 text-center text-sm",
          over ? "border-brand-600 bg-brand-50" : "border-zinc-300 bg-zinc-50",
          disabled && "opacity-60",
        )}
      >
        <p className="text-zinc-700">Drop PDF or Word (.docx) files here</p>
        <Button variant="secondary" size="sm" disabled={disabled} onClick={() => input.current?.click()}>
          Choose files
        </Button>
        <input
          ref={input}
          type="file"
          accept=".pdf,.docx,application/pdf,application/vnd.openxmlformats-officedocument.wordprocessingml.document"
          multiple
          className="sr-only"
          aria-label="Upload documents"
          tabIndex={-1}
          disabled={disabled}
          onChange={(e) => {
            addFiles(e.target.files);
            e.target.value = "";
          }}
        />
      </div>
      {uploads.length > 0 ? (
        <ul className="space-y-2" aria-label="Uploads">
          {uploads.map((u) => (
            <li key={u.key} className="rounded-md border border-zinc-200 bg-white px-3 py-2 text-sm">
              <div className="flex items-center justify-between gap-2">
                <span className="truncate font-medium text-zinc-900">{u.name}</span>
                {u.state === "failed" ? (
                  <Button variant="ghost" size="sm" onClick={() => setUploads((list) => list.filter((x) => x.key !== u.key))}>
                    Dismiss
                  </Button>
                ) : (
                  <span className="text-xs text-zinc-500 tabular-nums">{u.state === "checking" ? "Checking…" : `${Math.round(u.progress * 100)}%`}</span>
                )}
              </div>
              {u.state === "failed" ? (
                <p role="alert" className="mt-1 text-sm text-red-700">
                  {u.error}
                </p>
              ) : (
                <div
                  role="progressbar"
                  aria-label={`Uploading ${u.name}`}
                  aria-valuemin={0}
                  aria-valuemax={100}
                  aria-valuenow={Math.round(u.progress * 100)}
                  className="mt-2 h-1.5 overflow-hidden rounded-full bg-zinc-100"
                >
                  <div className="h-full rounded-full bg-brand-600 transition-[width]" style={{ width: `${Math.round(u.progress * 100)}%` }} />
                </div>
              )}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
