/**
 * The editor's field rules, kept pure so they can be tested without a browser: default sizes, where a field
 * lands, moving and resizing inside its page, and the colour of each role.
 */
import type { TPageSize, TRect } from "@/components/documents/geometry";
import type { TFieldType } from "@/server/db/schema/templates";

export const FIELD_TYPE_LABELS: Record<TFieldType, string> = {
  signature: "Signature",
  initials: "Initials",
  date: "Date signed",
  text: "Text",
  checkbox: "Checkbox",
  name: "Full name",
  email: "Email",
};

export const FIELD_TYPE_ORDER: TFieldType[] = ["signature", "initials", "date", "text", "checkbox", "name", "email"];

/** Sizes in points that fit what a recipient enters (a signature is wider than a checkbox). */
export const DEFAULT_FIELD_SIZE: Record<TFieldType, TPageSize> = {
  signature: { width: 160, height: 48 },
  initials: { width: 64, height: 40 },
  date: { width: 110, height: 24 },
  text: { width: 160, height: 24 },
  checkbox: { width: 18, height: 18 },
  name: { width: 160, height: 24 },
  email: { width: 180, height: 24 },
};

/** Smaller than this cannot be clicked or read on a phone. */
export const MIN_FIELD_SIZE = 8;

/** Fits a rectangle inside the page: shrinks it when larger than the page, then moves it back inside. */
export function clampRect(rect: TRect, page: TPageSize): TRect {
  const width = Math.min(Math.max(rect.width, MIN_FIELD_SIZE), page.width);
  const height = Math.min(Math.max(rect.height, MIN_FIELD_SIZE), page.height);
  const x = Math.min(Math.max(rect.x, 0), page.width - width);
  const y = Math.min(Math.max(rect.y, 0), page.height - height);
  return { x: round(x), y: round(y), width: round(width), height: round(height) };
}

/** A new field of `type` centred on a point of the page (where it was dropped), inside the page. */
export function rectAt(type: TFieldType, center: { x: number; y: number }, page: TPageSize): TRect {
  const size = DEFAULT_FIELD_SIZE[type];
  return clampRect({ x: center.x - size.width / 2, y: center.y - size.height / 2, ...size }, page);
}

/**
 * Where "Add to page N" puts a field: a left-aligned column from the top of the page, one slot further down
 * for each field already on it, so repeated additions do not hide each other.
 */
export function defaultRect(type: TFieldType, page: TPageSize, fieldsOnPage: number): TRect {
  const size = DEFAULT_FIELD_SIZE[type];
  const margin = Math.min(72, page.width / 8);
  const step = 56;
  const rows = Math.max(1, Math.floor((page.height - 2 * margin) / step));
  const slot = fieldsOnPage % rows;
  const column = Math.floor(fieldsOnPage / rows) % 2;
  return clampRect({ x: margin + column * (page.width / 2), y: margin + slot * step, ...size }, page);
}

export function moveRect(rect: TRect, dx: number, dy: number, page: TPageSize): TRect {
  return clampRect({ ...rect, x: rect.x + dx, y: rect.y + dy }, page);
}

/** Resizes from the bottom-right corner; the top-left corner stays where it is. */
export function resizeRect(rect: TRect, dw: number, dh: number, page: TPageSize): TRect {
  const width = Math.min(Math.max(rect.width + dw, MIN_FIELD_SIZE), page.width - rect.x);
  const height = Math.min(Math.max(rect.height + dh, MIN_FIELD_SIZE), page.height - rect.y);
  return clampRect({ ...rect, width, height }, page);
}

export function sameRect(a: TRect, b: TRect): boolean {
  return a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

/** One colour per role, by position in signing order; beyond eight they repeat (the legend still names them). */
const ROLE_COLOURS = ["#4f46e5", "#059669", "#d97706", "#db2777", "#0891b2", "#7c3aed", "#65a30d", "#dc2626"] as const;

export function roleColour(roleIndex: number): string {
  return ROLE_COLOURS[((roleIndex % ROLE_COLOURS.length) + ROLE_COLOURS.length) % ROLE_COLOURS.length]!;
}
