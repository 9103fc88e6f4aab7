/**
 * Page geometry shared by the document renderer and whatever draws on it (the template editor's fields, the
 * recipient's signing page). Everything the server stores is in PDF points from the page's top-left corner as
 * displayed (rotation applied); the screen works in CSS pixels. `scale` is CSS pixels per point.
 */
export type TPageSize = { width: number; height: number };
export type TRect = { x: number; y: number; width: number; height: number };
export type TPoint = { x: number; y: number };

/** CSS pixels per point for a page drawn `containerWidth` pixels wide. */
export function scaleFor(page: TPageSize, containerWidth: number): number {
  if (page.width <= 0 || containerWidth <= 0) return 0;
  return containerWidth / page.width;
}

export function pointsToPixels(rect: TRect, scale: number): TRect {
  return { x: rect.x * scale, y: rect.y * scale, width: rect.width * scale, height: rect.height * scale };
}

export function pixelsToPoints(point: TPoint, scale: number): TPoint {
  if (scale <= 0) return { x: 0, y: 0 };
  return { x: point.x / scale, y: point.y / scale };
}
