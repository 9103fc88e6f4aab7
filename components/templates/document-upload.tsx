"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { errorMessage } from "@/components/lib/api-client";
import { uploadFile } from "@/components/lib/upload-file";
import { Button } from "@/components/ui/button";
import { DropArea, UploadList, UploadRow, useFileDrop } from "@/components/ui/file-uploads";
import { templateKeys, useAddDocument, useDeleteDocument, type TAddedDocument } from "./query";

const PDF = "application/pdf";
const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

type TUpload = { key: number; name: string; progress: number; state: "uploading" | "checking" | "failed"; error?: string };

function contentTypeOf(file: File): typeof PDF | typeof DOCX | null {
  if (file.type === PDF || /\.pdf$/i.test(file.name)) return PDF;
  if (file.type === DOCX || /\.docx$/i.test(file.name)) return DOCX;
  return null;
}

/**
 * Drop PDF or Word files here, or choose them: each is registered, then uploaded with a progress bar. A file the
 * server refuses stays listed with the reason until dismissed; the document registered for it is removed.
 */
export function DocumentUpload({ templateId, disabled }: { templateId: string; disabled: boolean }) {
  const qc = useQueryClient();
  const add = useAddDocument(templateId);
  const remove = useDeleteDocument(templateId);
  const input = useRef<HTMLInputElement>(null);
  const seq = useRef(0);
  const [uploads, setUploads] = useState<TUpload[]>([]);

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
      await uploadFile(added.uploadUrl, file, (progress) => patch(key, { progress, state: progress >= 1 ? "checking" : "uploading" }), contentType);
      setUploads((list) => list.filter((u) => u.key !== key));
    } catch (err) {
      patch(key, { state: "failed", error: errorMessage(err) ?? "Upload failed" });
      // The refused file's document was registered first: remove it, so no "Waiting for the file…" is left behind
      // (dropping the file again registers a new one). If even that fails, the document stays, with its Delete.
      await remove.mutateAsync(added.document.id).catch(() => undefined);
    } finally {
      await qc.invalidateQueries({ queryKey: templateKeys.template(templateId), exact: true });
    }
  }

  function addFiles(files: FileList | null) {
    if (!files) return;
    for (const file of Array.from(files)) void upload(file);
  }

  const drop = useFileDrop(addFiles, disabled);

  return (
    <div className="space-y-3">
      <DropArea over={drop.over} disabled={disabled} {...drop.handlers} data-testid="upload-dropzone" className="px-4 py-6 text-sm">
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
      </DropArea>
      {uploads.length > 0 ? (
        <UploadList>
          {uploads.map((u) => (
            <UploadRow
              key={u.key}
              name={u.name}
              progress={u.progress}
              error={u.state === "failed" ? u.error : undefined}
              status={
                u.state === "failed" ? (
                  <Button variant="ghost" size="sm" onClick={() => setUploads((list) => list.filter((x) => x.key !== u.key))}>
                    Dismiss
                  </Button>
                ) : (
                  <span className="text-xs text-zinc-500 tabular-nums">{u.state === "checking" ? "Checking…" : `${Math.round(u.progress * 100)}%`}</span>
                )
              }
            />
          ))}
        </UploadList>
      ) : null}
    </div>
  );
}
