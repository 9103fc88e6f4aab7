"use client";

import { useId, type ReactNode } from "react";
import { Label } from "./label";

export type TFieldControlProps = {
  id: string;
  "aria-invalid": boolean;
  "aria-describedby"?: string;
};

type TFieldProps = {
  label: string;
  /** Messages for this field (first one shown); the control is marked invalid while there are any. */
  error?: readonly string[] | string;
  hint?: ReactNode;
  optional?: boolean;
  children: (control: TFieldControlProps) => ReactNode;
};

/** A labelled form control with its hint and error wired through aria-describedby. */
export function Field({ label, error, hint, optional, children }: TFieldProps) {
  const id = useId();
  const message = typeof error === "string" ? error : error?.[0];
  // The error replaces the hint rather than repeating it ("At least 10 characters" twice reads badly).
  const hintId = hint && !message ? `${id}-hint` : undefined;
  const errorId = message ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(" ") || undefined;
  return (
    <div className="space-y-1.5">
      <Label htmlFor={id}>
        {label}
        {optional ? <span className="ml-1 font-normal text-zinc-500">(optional)</span> : null}
      </Label>
      {children({ id, "aria-invalid": Boolean(message), "aria-describedby": describedBy })}
      {hintId ? (
        <p id={hintId} className="text-xs text-zinc-500">
          {hint}
        </p>
      ) : null}
      {message ? (
        <p id={errorId} className="text-sm text-red-700">
          {message}
        </p>
      ) : null}
    </div>
  );
}
