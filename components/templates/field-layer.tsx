"use client";

import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from "react";
import type { TRenderedPage } from "@/components/documents/document-pages";
import type { TRect } from "@/components/documents/geometry";
import { cn } from "@/components/ui/cn";
import { FIELD_TYPE_LABELS, moveRect, resizeRect, roleColour, sameRect } from "./field-geometry";
import type { TTemplateField, TTemplateRole } from "./query";

type TFieldLayerProps = {
  page: TRenderedPage;
  fields: TTemplateField[];
  roles: TTemplateRole[];
  selectedId: string | null;
  readOnly: boolean;
  onSelect: (fieldId: string) => void;
  /** Called once per gesture (a drag, a resize, or a burst of arrow keys), with the new rectangle in points. */
  onChange: (field: TTemplateField, rect: TRect) => void;
  onDelete: (field: TTemplateField) => void;
};

/** The fields of one page, drawn over it in their role's colour; each can be dragged, resized and moved by keyboard. */
export function FieldLayer(props: TFieldLayerProps) {
  return (
    <>
      {props.fields.map((field) => (
        <FieldBox key={field.id} field={field} {...props} />
      ))}
    </>
  );
}

/** Arrow keys move by this many points (ten times more with Alt); with Shift they resize instead. */
const STEP = 2;
/** A burst of arrow keys is saved once, this long after the last key. */
const KEY_SAVE_DELAY_MS = 400;

function FieldBox({ field, page, roles, selectedId, readOnly, onSelect, onChange, onDelete }: TFieldLayerProps & { field: TTemplateField }) {
  const stored: TRect = { x: field.x, y: field.y, width: field.width, height: field.height };
  // A draft applies to the stored rectangle it started from: once the cache holds the change (optimistically,
  // then from the server), the stored rectangle differs and the draft is dropped without an effect.
  const [draftState, setDraftState] = useState<{ base: TRect; rect: TRect } | null>(null);
  const draft = draftState && sameRect(draftState.base, stored) ? draftState.rect : null;
  const setDraft = (next: TRect | null) => setDraftState(next ? { base: stored, rect: next } : null);
  const gesture = useRef<{ mode: "move" | "resize"; startX: number; startY: number; origin: TRect; moved: boolean } | null>(null);
  const keyTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const rect = draft ?? stored;
  const role = roles.find((r) => r.roleIndex === field.roleIndex);
  const colour = roleColour(field.roleIndex);
  const selected = selectedId === field.id;
  const name = `${FIELD_TYPE_LABELS[field.type]} field${role ? ` for ${role.name}` : ""}, page ${field.page}`;

  // A pending keyboard burst is saved rather than dropped when the field goes away (e.g. the page re-renders).
  const pendingRef = useRef<{ rect: TRect; commit: (r: TRect) => void } | null>(null);
  useEffect(
    () => () => {
      if (keyTimer.current && pendingRef.current) pendingRef.current.commit(pendingRef.current.rect);
      if (keyTimer.current) clearTimeout(keyTimer.current);
    },
    [],
  );

  function commit(next: TRect) {
    pendingRef.current = null;
    if (keyTimer.current) clearTimeout(keyTimer.current);
    keyTimer.current = null;
    if (sameRect(next, stored)) setDraft(null);
    else onChange(field, next);
  }

  function start(mode: "move" | "resize", e: PointerEvent<HTMLElement>) {
    if (readOnly || e.button !== 0) return;
    e.stopPropagation();
    e.currentTarget.setPointerCapture(e.pointerId);
    gesture.current = { mode, startX: e.clientX, startY: e.clientY, origin: rect, moved: false };
  }

  function move(e: PointerEvent<HTMLElement>) {
    const g = gesture.current;
    if (!g || page.scale <= 0) return;
    const dx = (e.clientX - g.startX) / page.scale;
    const dy = (e.clientY - g.startY) / page.scale;
    if (!g.moved && Math.hypot(e.clientX - g.startX, e.clientY - g.startY) < 3) return;
    g.moved = true;
    setDraft(g.mode === "move" ? moveRect(g.origin, dx, dy, page.size) : resizeRect(g.origin, dx, dy, page.size));
  }

  function end() {
    const g = gesture.current;
    gesture.current = null;
    if (!g) return;
    if (g.moved && draft) commit(draft);
    else onSelect(field.id);
  }

  function key(e: KeyboardEvent<HTMLDivElement>) {
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      onSelect(field.id);
      return;
    }
    if (readOnly) return;
    if (e.key === "Delete" || e.key === "Backspace") {
      e.preventDefault();
      onDelete(field);
      return;
    }
    const arrows: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    const dir = arrows[e.key];
    if (!dir) return;
    e.preventDefault();
    const step = e.altKey ? STEP * 10 : STEP;
    const next = e.shiftKey ? resizeRect(rect, dir[0] * step, dir[1] * step, page.size) : moveRect(rect, dir[0] * step, dir[1] * step, page.size);
    setDraft(next);
    onSelect(field.id);
    pendingRef.current = { rect: next, commit };
    if (keyTimer.current) clearTimeout(keyTimer.current);
    keyTimer.current = setTimeout(() => commit(next), KEY_SAVE_DELAY_MS);
  }

  const px = { left: rect.x * page.scale, top: rect.y * page.scale, width: rect.width * page.scale, height: rect.height * page.scale };
  return (
    <div
      role="button"
      tabIndex={0}
      aria-label={name}
      aria-pressed={selected}
      aria-roledescription="field"
      aria-keyshortcuts={readOnly ? undefined : "ArrowUp ArrowDown ArrowLeft ArrowRight Shift+ArrowRight Shift+ArrowDown Delete"}
      data-testid="template-field"
      data-field-type={field.type}
      data-role-index={field.roleIndex}
      className={cn(
        "group absolute flex touch-none items-center justify-center overflow-hidden rounded-sm border-2 text-[11px] leading-tight font-medium select-none",
        "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-zinc-900",
        readOnly ? "cursor-default" : "cursor-move",
        selected && "ring-2 ring-zinc-900 ring-offset-1",
      )}
      style={{ ...px, borderColor: colour, backgroundColor: `${colour}22`, color: colour }}
      onPointerDown={(e) => start("move", e)}
      onPointerMove={move}
      onPointerUp={end}
      onPointerCancel={() => {
        gesture.current = null;
        setDraft(null);
      }}
      onKeyDown={key}
      onBlur={() => {
        if (keyTimer.current && pendingRef.current) commit(pendingRef.current.rect);
      }}
    >
      <span className="pointer-events-none truncate px-1" aria-hidden="true">
        {FIELD_TYPE_LABELS[field.type]}
        {field.required ? "" : " (optional)"}
      </span>
      {readOnly ? null : (
        <span
          aria-hidden="true"
          data-testid="resize-handle"
          className="absolute right-0 bottom-0 size-3 cursor-se-resize rounded-tl-sm"
          style={{ backgroundColor: colour }}
          onPointerDown={(e) => start("resize", e)}
          onPointerMove={move}
          onPointerUp={end}
        />
      )}
    </div>
  );
}
