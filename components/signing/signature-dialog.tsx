"use client";

import { useId, useRef, useState } from "react";
import { errorMessage } from "@/components/lib/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { cn } from "@/components/ui/cn";
import { HANDWRITING_FONT } from "./handwriting";
import { SignaturePad, type TSignaturePadHandle } from "./signature-pad";

export type TSignatureChoice = { kind: "typed"; text: string } | { kind: "drawn" | "uploaded"; png: Blob };
type TMode = "draw" | "type" | "upload";

/** An uploaded picture is redrawn as a PNG no larger than this, which keeps it well under the server's cap. */
const UPLOAD_MAX = { width: 600, height: 240 };

async function imageToPng(file: File): Promise<Blob> {
  const bitmap = await createImageBitmap(file);
  const scale = Math.min(1, UPLOAD_MAX.width / bitmap.width, UPLOAD_MAX.height / bitmap.height);
  const canvas = document.createElement("canvas");
  canvas.width = Math.max(1, Math.round(bitmap.width * scale));
  canvas.height = Math.max(1, Math.round(bitmap.height * scale));
  canvas.getContext("2d")?.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  bitmap.close();
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, "image/png"));
  if (!blob) throw new Error("The image could not be read");
  return blob;
}

type TProps = {
  open: boolean;
  initials: boolean;
  defaultText: string;
  onClose: () => void;
  /** Stores the choice; a rejection is shown in the dialog. */
  onSave: (choice: TSignatureChoice) => Promise<void>;
};

/** Draw (pointer or touch), type (shown in a handwriting-like face, any script), or upload an image. */
export function SignatureDialog({ open, initials, defaultText, onClose, onSave }: TProps) {
  const what = initials ? "initials" : "signature";
  const [mode, setMode] = useState<TMode>("draw");
  const [text, setText] = useState(defaultText);
  const [hasInk, setHasInk] = useState(false);
  const [upload, setUpload] = useState<{ png: Blob; url: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const pad = useRef<TSignaturePadHandle>(null);
  const typedId = useId();
  const uploadId = useId();

  async function save() {
    setError(null);
    let choice: TSignatureChoice | null = null;
    if (mode === "draw") {
      const png = await pad.current?.toPng();
      if (!png) return setError(`Draw your ${what} in the box first`);
      choice = { kind: "drawn", png };
    } else if (mode === "type") {
      if (!text.trim()) return setError(`Type your ${what} first`);
      choice = { kind: "typed", text: text.trim() };
    } else {
      if (!upload) return setError("Choose an image first");
      choice = { kind: "uploaded", png: upload.png };
    }
    setSaving(true);
    try {
      await onSave(choice);
      onClose();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setSaving(false);
    }
  }

  const tabs: { mode: TMode; label: string }[] = [
    { mode: "draw", label: "Draw" },
    { mode: "type", label: "Type" },
    { mode: "upload", label: "Upload" },
  ];

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={initials ? "Add your initials" : "Add your signature"}
      description={`Draw, type or upload your ${what}. It is placed on the document when you finish.`}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => void save()} pending={saving}>
            {initials ? "Use these initials" : "Use this signature"}
          </Button>
        </>
      }
    >
      <div className="space-y-4">
        <div className="inline-flex rounded-md border border-zinc-300 p-0.5" role="group" aria-label={`How to add your ${what}`}>
          {tabs.map((t) => (
            <button
              key={t.mode}
              type="button"
              aria-pressed={mode === t.mode}
              onClick={() => {
                setMode(t.mode);
                setError(null);
              }}
              className={cn("rounded px-3 py-1.5 text-sm font-medium", mode === t.mode ? "bg-brand-600 text-white" : "text-zinc-700 hover:bg-zinc-100")}
            >
              {t.label}
            </button>
          ))}
        </div>
        {error ? <Alert tone="error">{error}</Alert> : null}
        {mode === "draw" ? (
          <div className="space-y-2">
            <SignaturePad ref={pad} label={`Draw your ${what} here with a mouse, finger or pen`} onInk={setHasInk} />
            <div className="flex items-center justify-between text-xs text-zinc-600">
              <span>{hasInk ? "Looks good? Use it, or clear and draw again." : "Sign inside the box."}</span>
              <Button variant="ghost" size="sm" onClick={() => pad.current?.clear()} disabled={!hasInk}>
                Clear
              </Button>
            </div>
          </div>
        ) : null}
        {mode === "type" ? (
          <div className="space-y-2">
            <label htmlFor={typedId} className="block text-sm font-medium text-zinc-800">
              {initials ? "Type your initials" : "Type your signature"}
            </label>
            <Input
              id={typedId}
              dir="auto"
              value={text}
              maxLength={initials ? 12 : 120}
              autoComplete="name"
              data-autofocus
              onChange={(e) => setText(e.target.value)}
            />
            <div
              className="flex min-h-20 items-center justify-center overflow-hidden rounded-md border border-zinc-200 bg-zinc-50 px-3 text-3xl text-zinc-900"
              style={{ fontFamily: HANDWRITING_FONT }}
              dir="auto"
              aria-hidden="true"
              data-typed-preview
            >
              {text}
            </div>
          </div>
        ) : null}
        {mode === "upload" ? (
          <div className="space-y-2">
            <label htmlFor={uploadId} className="block text-sm font-medium text-zinc-800">
              Upload an image of your {what}
            </label>
            <input
              id={uploadId}
              type="file"
              accept="image/png,image/jpeg,image/webp,image/gif"
              className="block w-full text-sm text-zinc-700 file:mr-3 file:rounded-md file:border file:border-zinc-300 file:bg-white file:px-3 file:py-1.5 file:text-sm"
              onChange={async (e) => {
                const file = e.target.files?.[0];
                if (!file) return;
                setError(null);
                try {
                  const png = await imageToPng(file);
                  setUpload((old) => {
                    if (old) URL.revokeObjectURL(old.url);
                    return { png, url: URL.createObjectURL(png) };
                  });
                } catch {
                  setError("That file could not be read as an image. Try a PNG or JPEG.");
                }
              }}
            />
            {upload ? (
              // eslint-disable-next-line @next/next/no-img-element -- a local object URL, nothing to optimise
              <img src={upload.url} alt={`Your uploaded ${what}`} className="max-h-24 rounded border border-zinc-200 bg-white" />
            ) : null}
          </div>
        ) : null}
      </div>
    </Dialog>
  );
}
