"use client";

import { useEffect, useRef, useState, type ReactNode } from "react";
import type { PDFDocumentProxy, RenderTask } from "pdfjs-dist";
import { Alert } from "@/components/ui/alert";
import { scaleFor, type TPageSize } from "./geometry";

/** One displayed page: its number (from 1), its size in points (rotation applied) and CSS pixels per point. */
export type TRenderedPage = { pageNumber: number; size: TPageSize; scale: number };

type TDocumentPagesProps = {
  /** Where the PDF is read from (same origin; the session cookie goes with it). */
  url: string;
  /** The accessible name of the document, e.g. its file name. */
  label: string;
  /**
   * The page sizes the server measured, if known: pages (and their overlays) are laid out at once, before the
   * PDF has arrived. The sizes pdf.js reads replace them when they differ.
   */
  pageSizes?: readonly TPageSize[] | null;
  /** What is drawn over a page (fields), positioned in CSS pixels: multiply points by `page.scale`. */
  renderOverlay?: (page: TRenderedPage) => ReactNode;
  /** Below each page (e.g. a keyboard user's "Add to page N" button). */
  renderPageFooter?: (page: TRenderedPage) => ReactNode;
  /** Called once the PDF is read, with every page's size in points. */
  onLoad?: (pages: TPageSize[]) => void;
};

/** Served from public/pdfjs/, copied there from pdfjs-dist by scripts/copy-pdfjs-assets.mjs: no CDN, works offline. */
const ASSETS = "/pdfjs";

type TPdfjs = typeof import("pdfjs-dist");
let pdfjsPromise: Promise<TPdfjs> | null = null;

/** pdf.js touches browser globals when its module is evaluated, so it is imported in the browser only, once. */
function loadPdfjs(): Promise<TPdfjs> {
  pdfjsPromise ??= import("pdfjs-dist").then((pdfjs) => {
    pdfjs.GlobalWorkerOptions.workerSrc = `${ASSETS}/pdf.worker.min.mjs`;
    return pdfjs;
  });
  return pdfjsPromise;
}

type TState = { kind: "loading" } | { kind: "error"; message: string } | { kind: "ready"; doc: PDFDocumentProxy; sizes: TPageSize[] };

/**
 * A PDF drawn page by page with pdf.js, each page a canvas as wide as the container (so it follows the layout
 * down to a phone's 390 px), with an overlay layer for fields in PDF points (top-left origin, rotation
 * applied). Pages far off screen are not drawn until they come near. Reused by the signing page.
 */
export function DocumentPages({ url, label, pageSizes, renderOverlay, renderPageFooter, onLoad }: TDocumentPagesProps) {
  const root = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  // Kept with the URL it belongs to: a new URL reads as loading at once, without resetting state in an effect.
  const [loadedState, setState] = useState<{ url: string; state: TState } | null>(null);
  const state: TState = loadedState?.url === url ? loadedState.state : { kind: "loading" };
  const onLoadRef = useRef(onLoad);
  useEffect(() => {
    onLoadRef.current = onLoad;
  }, [onLoad]);

  useEffect(() => {
    const el = root.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => setWidth(Math.floor(entry!.contentRect.width)));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    let cancelled = false;
    let loaded: PDFDocumentProxy | null = null;
    let destroyTask: (() => Promise<void>) | null = null;
    (async () => {
      try {
        const pdfjs = await loadPdfjs();
        const task = pdfjs.getDocument({
          url,
          withCredentials: true,
          isEvalSupported: false,
          cMapUrl: `${ASSETS}/cmaps/`,
          cMapPacked: true,
          standardFontDataUrl: `${ASSETS}/standard_fonts/`,
          wasmUrl: `${ASSETS}/wasm/`,
        });
        destroyTask = () => task.destroy();
        const doc = await task.promise;
        loaded = doc;
        const sizes: TPageSize[] = [];
        for (let n = 1; n <= doc.numPages; n++) {
          const viewport = (await doc.getPage(n)).getViewport({ scale: 1 });
          sizes.push({ width: viewport.width, height: viewport.height });
        }
        if (cancelled) return;
        setState({ url, state: { kind: "ready", doc, sizes } });
        onLoadRef.current?.(sizes);
      } catch (err) {
        if (cancelled) return;
        setState({ url, state: { kind: "error", message: describeLoadError(err) } });
      }
    })();
    return () => {
      cancelled = true;
      void (loaded ? loaded.destroy() : destroyTask?.());
    };
  }, [url]);

  const sizes = state.kind === "ready" ? state.sizes : (pageSizes ?? []);

  return (
    <div ref={root} role="group" aria-label={label} aria-busy={state.kind === "loading"} className="w-full min-w-0 space-y-4">
      {state.kind === "error" ? (
        <Alert tone="error" title="This document could not be displayed">
          {state.message}
        </Alert>
      ) : null}
      {state.kind === "loading" && sizes.length === 0 ? (
        <p className="rounded-lg border border-dashed border-zinc-300 bg-white px-4 py-16 text-center text-sm text-zinc-500">Loading document…</p>
      ) : null}
      {width > 0
        ? sizes.map((size, i) => {
            const page: TRenderedPage = { pageNumber: i + 1, size, scale: scaleFor(size, width) };
            return (
              <div key={i} className="space-y-2">
                <PdfPage doc={state.kind === "ready" ? state.doc : null} page={page} width={width} failed={state.kind === "error"}>
                  {renderOverlay?.(page)}
                </PdfPage>
                {renderPageFooter?.(page)}
              </div>
            );
          })
        : null}
    </div>
  );
}

function describeLoadError(err: unknown): string {
  const name = err instanceof Error ? err.name : "";
  if (name === "InvalidPDFException") return "The file is not a valid PDF.";
  if (name === "PasswordException") return "The PDF is protected by a password.";
  if (name === "ResponseException" || name === "MissingPDFException") return "The file could not be downloaded. Reload the page to try again.";
  return "Reload the page to try again.";
}

type TPdfPageProps = { doc: PDFDocumentProxy | null; page: TRenderedPage; width: number; failed: boolean; children?: ReactNode };

/** One page: a white sheet of the page's proportions, its canvas drawn once it comes near the viewport. */
function PdfPage({ doc, page, width, failed, children }: TPdfPageProps) {
  const sheet = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const [near, setNear] = useState(false);
  const [drawn, setDrawn] = useState(false);
  const height = Math.round(page.size.height * page.scale);

  useEffect(() => {
    const el = sheet.current;
    if (!el) return;
    // One screen above and below is drawn ahead, so scrolling rarely shows an empty sheet.
    const observer = new IntersectionObserver(([entry]) => setNear(Boolean(entry?.isIntersecting)), { rootMargin: "100% 0px" });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    if (!doc || !near || !canvas.current) return;
    let task: RenderTask | null = null;
    let cancelled = false;
    const target = canvas.current;
    (async () => {
      const pdfPage = await doc.getPage(page.pageNumber);
      if (cancelled) return;
      // Drawn at the screen's pixel density so text stays sharp; capped to bound memory on large pages.
      const density = Math.min(window.devicePixelRatio || 1, 2);
      const viewport = pdfPage.getViewport({ scale: page.scale * density });
      target.width = Math.floor(viewport.width);
      target.height = Math.floor(viewport.height);
      task = pdfPage.render({ canvas: target, viewport });
      await task.promise;
      if (!cancelled) setDrawn(true);
    })().catch((err: unknown) => {
      // A render cancelled by a newer one (resize, scroll away) is expected; anything else leaves the sheet blank.
      if (!(err instanceof Error && err.name === "RenderingCancelledException")) setDrawn(false);
    });
    return () => {
      cancelled = true;
      task?.cancel();
    };
  }, [doc, near, page.pageNumber, page.scale]);

  return (
    <div
      ref={sheet}
      className="relative overflow-hidden rounded-sm bg-white shadow-sm ring-1 ring-zinc-200"
      style={{ width, height }}
      data-page={page.pageNumber}
    >
      <canvas ref={canvas} aria-hidden="true" className="absolute inset-0 size-full" />
      {!drawn && !failed ? (
        <span className="absolute inset-0 flex items-center justify-center text-xs text-zinc-400" aria-hidden="true">
          Page {page.pageNumber}
        </span>
      ) : null}
      <div className="absolute inset-0" data-page-overlay={page.pageNumber}>
        {children}
      </div>
    </div>
  );
}
