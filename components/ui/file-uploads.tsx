"use client";

import { useState, type DragEvent, type ReactNode } from "react";
import { cn } from "./cn";

/**
 * The pieces both upload zones share (the library's and the template editor's): dropping files on an element,
 * and the list of uploads with a progress bar each. What the zone says, which files it takes and what it does
 * with them stay with the zone.
 */

/** Files dragged onto an element: whether they are over it, and the handlers to spread on it. */
export function useFileDrop(onFiles: (files: FileList) => void, disabled = false) {
  const [over, setOver] = useState(false);
  const handlers = {
    onDragOver(event: DragEvent) {
      event.preventDefault();
      if (!disabled) setOver(true);
    },
    onDragLeave() {
      setOver(false);
    },
    onDrop(event: DragEvent) {
      event.preventDefault();
      setOver(false);
      if (!disabled && event.dataTransfer.files.length) onFiles(event.dataTransfer.files);
    },
  };
  return { over, handlers };
}

/** The dashed area files are dropped on; its content is the zone's. */
export function DropArea({
  over,
  disabled,
  className,
  children,
  ...rest
}: { over: boolean; disabled?: boolean; className?: string; children: ReactNode; "data-testid"?: string } & ReturnType<typeof useFileDrop>["handlers"]) {
  return (
    <div
      {...rest}
      className={cn(
        "flex flex-col items-center justify-center gap-2 rounded-lg border-2 border-dashed text-center transition-colors",
        over ? "border-brand-500 bg-brand-50" : "border-zinc-300 bg-zinc-50",
        disabled && "opacity-60",
        className,
      )}
    >
      {children}
    </div>
  );
}

export function UploadList({ children }: { children: ReactNode }) {
  return (
    <ul className="space-y-2" aria-label="Uploads">
      {children}
    </ul>
  );
}

/**
 * One upload: its file name and `status` (a percentage, a word, a button), then its error or its progress bar
 * (green once `done`).
 */
export function UploadRow({
  name,
  progress,
  error,
  done = false,
  status,
  testId,
}: {
  name: string;
  progress: number;
  error?: string;
  done?: boolean;
  status: ReactNode;
  testId?: string;
}) {
  const percent = Math.round(progress * 100);
  return (
    <li className="rounded-md border border-zinc-200 bg-white px-3 py-2 text-sm" data-testid={testId}>
      <div className="flex items-center justify-between gap-3">
        <span className="min-w-0 truncate font-medium text-zinc-900">{name}</span>
        {status}
      </div>
      {error !== undefined ? (
        <p role="alert" className="mt-1 text-sm text-red-700">
          {error}
        </p>
      ) : (
        <div
          role="progressbar"
          aria-label={`Uploading ${name}`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          className="mt-2 h-1.5 overflow-hidden rounded-full bg-zinc-100"
        >
          <div className={cn("h-full rounded-full transition-[width]", done ? "bg-emerald-500" : "bg-brand-600")} style={{ width: `${percent}%` }} />
        </div>
      )}
    </li>
  );
}
