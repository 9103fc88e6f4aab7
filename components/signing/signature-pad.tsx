"use client";

import { useEffect, useImperativeHandle, useRef, type Ref } from "react";

export type TSignaturePadHandle = {
  clear(): void;
  /** The ink cropped to its bounds (with a margin) as a PNG, or null when nothing was drawn. */
  toPng(): Promise<Blob | null>;
};

type TBounds = { minX: number; minY: number; maxX: number; maxY: number };

/**
 * A drawing surface for a signature: pointer events cover mouse, touch and pen alike (`touch-action: none`
 * keeps a finger from scrolling the page while it signs). Drawn at the screen's pixel density; exported cropped.
 */
export function SignaturePad({ ref, label, onInk }: { ref?: Ref<TSignaturePadHandle>; label: string; onInk: (hasInk: boolean) => void }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const drawing = useRef(false);
  const bounds = useRef<TBounds | null>(null);

  /**
   * Matches the bitmap to the displayed size. The dialog around the pad is shown only after this component's
   * effects ran (a parent's effect runs last), so the size is taken when the pad first has one, and again at the
   * first stroke; never while there is ink (resizing clears the bitmap).
   */
  function prepare(el: HTMLCanvasElement) {
    if (bounds.current) return;
    const density = Math.min(window.devicePixelRatio || 1, 3);
    const rect = el.getBoundingClientRect();
    const width = Math.floor(rect.width * density);
    const height = Math.floor(rect.height * density);
    if (width === 0 || height === 0 || (el.width === width && el.height === height)) return;
    el.width = width;
    el.height = height;
    const ctx = el.getContext("2d");
    if (!ctx) return;
    ctx.setTransform(density, 0, 0, density, 0, 0);
    ctx.lineWidth = 2.5;
    ctx.lineCap = "round";
    ctx.lineJoin = "round";
    ctx.strokeStyle = "#111827";
  }

  useEffect(() => {
    const el = canvas.current;
    if (!el) return;
    const observer = new ResizeObserver(() => prepare(el));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  function point(event: React.PointerEvent<HTMLCanvasElement>) {
    const rect = event.currentTarget.getBoundingClientRect();
    return { x: event.clientX - rect.left, y: event.clientY - rect.top };
  }

  function grow(p: { x: number; y: number }) {
    const b = bounds.current;
    bounds.current = b
      ? { minX: Math.min(b.minX, p.x), minY: Math.min(b.minY, p.y), maxX: Math.max(b.maxX, p.x), maxY: Math.max(b.maxY, p.y) }
      : { minX: p.x, minY: p.y, maxX: p.x, maxY: p.y };
  }

  useImperativeHandle(ref, () => ({
    clear() {
      const el = canvas.current;
      el?.getContext("2d")?.clearRect(0, 0, el.width, el.height);
      bounds.current = null;
      onInk(false);
    },
    async toPng() {
      const el = canvas.current;
      const b = bounds.current;
      if (!el || !b) return null;
      const density = el.width / el.getBoundingClientRect().width || 1;
      const margin = 6;
      const sx = Math.max(0, Math.floor((b.minX - margin) * density));
      const sy = Math.max(0, Math.floor((b.minY - margin) * density));
      const sw = Math.min(el.width - sx, Math.ceil((b.maxX - b.minX + 2 * margin) * density));
      const sh = Math.min(el.height - sy, Math.ceil((b.maxY - b.minY + 2 * margin) * density));
      const out = document.createElement("canvas");
      out.width = Math.max(1, sw);
      out.height = Math.max(1, sh);
      out.getContext("2d")?.drawImage(el, sx, sy, sw, sh, 0, 0, sw, sh);
      return new Promise<Blob | null>((resolve) => out.toBlob(resolve, "image/png"));
    },
  }));

  return (
    <canvas
      ref={canvas}
      role="img"
      aria-label={label}
      className="block h-40 w-full cursor-crosshair touch-none rounded-md border border-dashed border-zinc-400 bg-white"
      onPointerDown={(event) => {
        event.preventDefault();
        prepare(event.currentTarget);
        event.currentTarget.setPointerCapture(event.pointerId);
        drawing.current = true;
        const p = point(event);
        const ctx = event.currentTarget.getContext("2d");
        ctx?.beginPath();
        ctx?.moveTo(p.x, p.y);
        // A tap leaves a dot.
        ctx?.lineTo(p.x + 0.1, p.y + 0.1);
        ctx?.stroke();
        grow(p);
        onInk(true);
      }}
      onPointerMove={(event) => {
        if (!drawing.current) return;
        const p = point(event);
        const ctx = event.currentTarget.getContext("2d");
        ctx?.lineTo(p.x, p.y);
        ctx?.stroke();
        grow(p);
      }}
      onPointerUp={() => {
        drawing.current = false;
      }}
      onPointerCancel={() => {
        drawing.current = false;
      }}
    />
  );
}
