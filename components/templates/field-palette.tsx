"use client";

import { useRef, type PointerEvent } from "react";
import { cn } from "@/components/ui/cn";
import { Select } from "@/components/ui/input";
import type { TFieldType } from "@/server/db/schema/templates";
import { FIELD_TYPE_LABELS, FIELD_TYPE_ORDER, roleColour } from "./field-geometry";
import type { TTemplateRole } from "./query";

type TFieldPaletteProps = {
  roles: TTemplateRole[];
  activeRole: number;
  onActiveRole: (roleIndex: number) => void;
  selectedType: TFieldType | null;
  onSelectType: (type: TFieldType | null) => void;
  /** A drag from the palette started (the editor follows the pointer and places the field where it is let go). */
  onDragStart: (type: TFieldType, e: PointerEvent<HTMLButtonElement>) => void;
  disabled: boolean;
};

/**
 * The field types: drag one onto a page, or (keyboard) choose one and press "Add to page N" under a page. New
 * fields belong to the role chosen here; the legend gives each role's colour.
 */
export function FieldPalette({ roles, activeRole, onActiveRole, selectedType, onSelectType, onDragStart, disabled }: TFieldPaletteProps) {
  const dragged = useRef(false);
  const noRoles = roles.length === 0;
  return (
    <div className="space-y-4">
      <label className="block space-y-1.5 text-sm font-medium text-zinc-800">
        <span>New fields are for</span>
        <Select value={noRoles ? "" : String(activeRole)} onChange={(e) => onActiveRole(Number(e.target.value))} disabled={disabled || noRoles}>
          {noRoles ? <option value="">No role yet</option> : null}
          {roles.map((r) => (
            <option key={r.id} value={r.roleIndex}>
              {r.roleIndex + 1}. {r.name}
            </option>
          ))}
        </Select>
      </label>
      {noRoles ? <p className="text-xs text-zinc-500">Add a role below before placing fields: every field belongs to a signer.</p> : null}
      <div role="group" aria-label="Field types" className="grid grid-cols-2 gap-2">
        {FIELD_TYPE_ORDER.map((type) => (
          <button
            key={type}
            type="button"
            aria-pressed={selectedType === type}
            disabled={disabled || noRoles}
            data-testid={`palette-${type}`}
            className={cn(
              "flex h-9 touch-none items-center gap-2 rounded-md border px-2.5 text-left text-sm font-medium focus-visible:outline-2 focus-visible:outline-brand-600",
              "disabled:cursor-not-allowed disabled:opacity-50",
              selectedType === type ? "border-brand-600 bg-brand-50 text-brand-700" : "border-zinc-300 bg-white text-zinc-800 hover:bg-zinc-50",
              !disabled && !noRoles && "cursor-grab",
            )}
            onPointerDown={(e) => {
              dragged.current = false;
              if (e.button === 0 && !disabled && !noRoles) onDragStart(type, e);
            }}
            onPointerMove={(e) => {
              if (e.buttons) dragged.current = true;
            }}
            onClick={() => {
              // A click after a drag is the end of the drag, not a choice.
              if (dragged.current) return;
              onSelectType(selectedType === type ? null : type);
            }}
          >
            <span className="size-2.5 shrink-0 rounded-full" style={{ backgroundColor: roleColour(activeRole) }} aria-hidden="true" />
            {FIELD_TYPE_LABELS[type]}
          </button>
        ))}
      </div>
      <p className="text-xs text-zinc-500">
        Drag a type onto a page, or choose one and use “Add to page” under the page. Select a field, then move it with the arrow keys and resize it with Shift +
        arrow keys.
      </p>
      {roles.length > 0 ? (
        <ul aria-label="Role colours" className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-zinc-700">
          {roles.map((r) => (
            <li key={r.id} className="flex items-center gap-1.5">
              <span
                className="size-3 rounded-sm border-2"
                style={{ borderColor: roleColour(r.roleIndex), backgroundColor: `${roleColour(r.roleIndex)}22` }}
                aria-hidden="true"
              />
              {r.name}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
