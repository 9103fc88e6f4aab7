"use client";

import { useId, useRef, useState } from "react";
import { Button } from "./button";
import { Label } from "./label";

/** A read-only value with a Copy button (signing links, API keys, invite links, webhook secrets); where the clipboard API is unavailable (plain http), it selects the text. */
export function CopyField({ label, value, testId, autoFocus }: { label: string; value: string; testId?: string; autoFocus?: boolean }) {
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
      <Label htmlFor={id}>{label}</Label>
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
        <Button variant="secondary" onClick={copy} data-autofocus={autoFocus || undefined}>
          {state === "copied" ? "Copied" : "Copy"}
        </Button>
      </div>
      <p className="min-h-4 text-xs text-zinc-500" aria-live="polite">
        {state === "copied" ? "Copied to the clipboard." : state === "select" ? "Copying is blocked here: the text is selected, press Ctrl+C (⌘C)." : ""}
      </p>
    </div>
  );
}
