"use client";

import { useLayoutEffect, useRef, useState } from "react";
import type { TRenderedPage } from "@/components/documents/document-pages";
import { cn } from "@/components/ui/cn";
import { HANDWRITING_FONT } from "./handwriting";
import type { TField } from "./query";

const NAMES: Record<TField["type"], string> = {
  signature: "Signature",
  initials: "Initials",
  date: "Date signed",
  text: "Text",
  checkbox: "Checkbox",
  name: "Full name",
  email: "Email",
};

/** The label the sender gave the field, if any (a blank one counts as none). */
function labelOf(field: Pick<TField, "label">): string | null {
  return field.label?.trim() || null;
}

/** What a screen reader hears after a required field's name. */
const requiredNote = (field: Pick<TField, "required">) => (field.required ? " (required)" : "");

/** The field's accessible name: its label, or what it is, and whether it is required. */
export function fieldName(field: TField): string {
  return `${labelOf(field) ?? NAMES[field.type]}${requiredNote(field)}`;
}

type TBox = { left: number; top: number; width: number; height: number };

/**
 * A labelled field's label, visible over the page: above the box (below it when the box sits at the top of the
 * page), at least 9rem wide so a phone's small scale does not squeeze it to a word a line, kept inside the page,
 * wrapping anywhere. For an input it is the `<label>`, so it names it and a click on it focuses it; `hidden`
 * (what a screen reader hears after it: "(required)", "filled in automatically") completes that name.
 * For a signature button, whose own name already starts with the label, it is only seen; so is an earlier
 * signer's finished field's (`completed`: grey like its frame, not marked required, since nothing is left
 * to fill), whose frame's screen-reader text already names it.
 */
export function FieldCaption({
  field,
  page,
  box,
  hidden = "",
  completed = false,
}: {
  field: Pick<TField, "id" | "label" | "required" | "type">;
  page: TRenderedPage;
  box: TBox;
  hidden?: string;
  completed?: boolean;
}) {
  const label = labelOf(field);
  if (!label) return null;
  const pageWidth = page.size.width * page.scale;
  const maxWidth = Math.min(pageWidth, Math.max(box.width, 144));
  const below = box.top < 28;
  const style = {
    left: Math.max(0, Math.min(box.left, pageWidth - maxWidth)),
    maxWidth,
    ...(below ? { top: box.top + box.height + 2 } : { bottom: page.size.height * page.scale - box.top + 2 }),
  };
  const className = cn(
    "absolute z-10 w-max rounded-sm bg-white/90 px-1 text-[11px] leading-tight font-medium wrap-anywhere shadow-sm ring-1",
    completed ? "text-zinc-700 ring-zinc-500/40" : "text-brand-700 ring-brand-600/30",
  );
  if (completed) {
    return (
      <span aria-hidden="true" data-completed-label={field.id} className={className} style={style}>
        <span dir="auto">{label}</span>
      </span>
    );
  }
  // The asterisk comes last, after what a screen reader hears instead of it, so the label's text reads in order.
  const mark = field.required ? (
    <span aria-hidden="true" className="text-red-700">
      {" *"}
    </span>
  ) : null;
  if (field.type === "signature" || field.type === "initials") {
    return (
      <span aria-hidden="true" data-field-label={field.id} className={className} style={style}>
        <span dir="auto">{label}</span>
        {mark}
      </span>
    );
  }
  return (
    <label htmlFor={`field-${field.id}`} data-field-label={field.id} className={className} style={style}>
      <span dir="auto">{label}</span>
      <span className="sr-only">{hidden}</span>
      {mark}
    </label>
  );
}

type TProps = {
  field: TField;
  page: TRenderedPage;
  /** What an empty name/email/date field shows (the recipient's name and email; today's date). */
  fallback: string | null;
  imageUrl: string | null;
  invalid: boolean;
  onOpenSignature: () => void;
  onSave: (value: string | null) => void;
  onFocus: () => void;
};

/**
 * A typed signature or initials in the box, whole: the size the sealed PDF uses (70 % of the box height, at most
 * 24 pt), shrunk until the text fits the width (server/pdf/stamp-document.ts `fitSize`), never cut off.
 */
export function FittedText({ text, maxSize, handwriting = true }: { text: string; maxSize: number; handwriting?: boolean }) {
  const ref = useRef<HTMLSpanElement>(null);
  const [size, setSize] = useState(maxSize);
  useLayoutEffect(() => {
    const el = ref.current;
    const box = el?.parentElement;
    if (!el || !box) return;
    el.style.fontSize = `${maxSize}px`;
    // Both widths without the span's own padding (px-1: 4 px a side).
    const room = box.clientWidth - 8;
    const needed = el.scrollWidth - 8;
    setSize(needed > room && needed > 0 ? Math.max(4, (maxSize * room) / needed) : maxSize);
  }, [text, maxSize]);
  return (
    <span
      ref={ref}
      dir="auto"
      data-typed-value
      className="px-1 leading-none whitespace-nowrap"
      style={{ fontFamily: handwriting ? HANDWRITING_FONT : undefined, fontSize: size }}
    >
      {text}
    </span>
  );
}

/** One field over its page, positioned in CSS pixels from its box in points: a focusable, labelled control. */
export function FieldControl({ field, page, fallback, imageUrl, invalid, onOpenSignature, onSave, onFocus }: TProps) {
  const [draft, setDraft] = useState<string | null>(null);
  const style = {
    left: field.x * page.scale,
    top: field.y * page.scale,
    width: field.width * page.scale,
    height: field.height * page.scale,
    fontSize: Math.max(11, Math.min(16, field.height * page.scale * 0.6)),
  };
  const name = fieldName(field);
  const labelled = labelOf(field) !== null;
  const required = requiredNote(field);
  const frame = cn(
    "absolute rounded-sm outline-offset-1 focus-visible:outline-2 focus-visible:outline-brand-600",
    invalid ? "ring-2 ring-red-600" : "ring-1 ring-brand-600/70",
  );
  const common = { id: `field-${field.id}`, "data-field-id": field.id, "aria-invalid": invalid || undefined, onFocus };

  if (field.type === "signature" || field.type === "initials") {
    const signed = Boolean(imageUrl || field.value);
    return (
      <>
        <FieldCaption field={field} page={page} box={style} hidden="" />
        <button
          type="button"
          {...common}
          aria-label={`${name}: ${signed ? "signed, press to change" : "press to sign"}`}
          onClick={onOpenSignature}
          className={cn(frame, "flex items-center justify-center overflow-hidden", signed ? "bg-white/40" : "bg-amber-100/90 text-zinc-900 hover:bg-amber-200")}
          style={style}
        >
          {imageUrl ? (
            // eslint-disable-next-line @next/next/no-img-element -- a stored signature from this page's own API
            <img src={imageUrl} alt="" className="max-h-full max-w-full object-contain" />
          ) : field.value ? (
            <FittedText text={field.value} maxSize={Math.min(style.height * 0.7, 24 * page.scale)} />
          ) : (
            <span className="truncate px-1 font-medium">{field.type === "initials" ? "Initial" : "Sign here"}</span>
          )}
        </button>
      </>
    );
  }

  if (field.type === "checkbox") {
    return (
      <>
        <FieldCaption field={field} page={page} box={style} hidden={required} />
        <span className={cn(frame, "flex items-center justify-center bg-white/70")} style={style}>
          <input
            type="checkbox"
            {...common}
            aria-label={labelled ? undefined : name}
            aria-required={field.required || undefined}
            checked={field.value === "true"}
            onChange={(e) => onSave(e.target.checked ? "true" : "false")}
            className="size-[70%] max-h-5 max-w-5 accent-brand-600"
          />
        </span>
      </>
    );
  }

  const readOnly = field.readOnly || field.type === "date";
  const shown = draft ?? field.value ?? fallback ?? "";
  const automatic = field.type === "date" ? ", filled in automatically" : "";
  return (
    <>
      <FieldCaption field={field} page={page} box={style} hidden={`${required}${automatic}`} />
      <input
        {...common}
        type={field.type === "email" ? "email" : "text"}
        dir="auto"
        aria-label={labelled ? undefined : `${name}${automatic}`}
        aria-required={field.required || undefined}
        readOnly={readOnly}
        value={shown}
        maxLength={field.type === "email" ? 254 : 500}
        autoComplete={field.type === "name" ? "name" : field.type === "email" ? "email" : "off"}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={() => {
          if (readOnly || draft === null) return;
          const next = draft.trim() === "" ? null : draft;
          setDraft(null);
          if (next !== field.value) onSave(next);
        }}
        className={cn(frame, "min-w-0 bg-white/85 px-1 text-zinc-900", readOnly && "bg-zinc-100/85")}
        style={style}
      />
    </>
  );
}
