"use client";

import type { TRenderedPage } from "@/components/documents/document-pages";
import { FieldCaption, FittedText, fieldName } from "./field-control";
import type { TCompletedField } from "./query";

/**
 * A field an earlier recipient filled in and finished, over its page: its value as the sealed PDF will draw it
 * (the same ink, size rule and handwriting face), in a dashed grey frame, not focusable and not editable. Its
 * label, if it has one, is shown beside the frame as the signer's own fields show theirs (never over the value);
 * a screen reader hears it, whose it is and that it cannot be changed from the frame.
 */
export function CompletedField({ field, page, imageUrl }: { field: TCompletedField; page: TRenderedPage; imageUrl: string | null }) {
  const style = { left: field.x * page.scale, top: field.y * page.scale, width: field.width * page.scale, height: field.height * page.scale };
  const maxSize = Math.min(style.height * 0.7, 24 * page.scale);
  const handwriting = field.type === "signature" || field.type === "initials";
  let value = null;
  if (imageUrl) {
    // eslint-disable-next-line @next/next/no-img-element -- a stored signature from this page's own API
    value = <img src={imageUrl} alt={`${fieldName({ ...field, required: false })} of ${field.signer}`} className="max-h-full max-w-full object-contain" />;
  } else if (field.type === "checkbox") {
    value = field.value === "true" ? <span className="text-[#0d1a4d]">✓</span> : null;
  } else if (field.value) {
    value = <FittedText text={field.value} maxSize={maxSize} handwriting={handwriting} />;
  }
  return (
    <>
      <FieldCaption field={field} page={page} box={style} completed />
      <div
        data-completed-field={field.id}
        title={`Filled in by ${field.signer}; it cannot be changed`}
        className="absolute flex items-center justify-center overflow-hidden rounded-sm bg-zinc-100/60 text-[#0d1a4d] outline-1 outline-zinc-500 outline-dashed"
        style={style}
      >
        <span className="sr-only">
          {fieldName({ ...field, required: false })}, filled in by {field.signer}, cannot be changed:{" "}
          {field.type === "checkbox" ? (field.value === "true" ? "checked" : "not checked") : ""}
        </span>
        {value}
      </div>
    </>
  );
}
