"use client";

import { useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";

/** A read-only value with a Copy button; where the clipboard is unavailable (plain http), the text is selected instead. */
export function CopyValue({ label, value, testId }: { label: string; value: string; testId?: string }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [state, setState] = useState<"idle" | "copied" | "select">("idle");

  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setState("copied");
    } catch {
      input.current?.select();
      setState("select");
    }
  }

  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium text-zinc-800">
        {label}
      </label>
      <div className="flex gap-2">
        <input
          ref={input}
          id={id}
          readOnly
          value={value}
          onFocus={(e) => e.currentTarget.select()}
          className="h-10 min-w-0 flex-1 rounded-md border border-zinc-300 bg-zinc-50 px-3 font-mono text-sm text-zinc-900"
          data-testid={testId}
        />
        <Button variant="secondary" onClick={copy}>
          {state === "copied" ? "Copied" : "Copy"}
        </Button>
      </div>
      <p className="min-h-4 text-xs text-zinc-500" aria-live="polite">
        {state === "copied" ? "Copied to the clipboard." : state === "select" ? "Copying is blocked here: the text is selected, press Ctrl+C (⌘C)." : ""}
      </p>
    </div>
  );
}
