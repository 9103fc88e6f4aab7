"use client";

import Script from "next/script";
import { useRef, useState } from "react";

type TRedoc = { init: (specUrl: string, options: Record<string, unknown>, element: HTMLElement | null, done?: () => void) => void };

/**
 * Redoc's options: our colours and system fonts (nothing is downloaded), the payload schemas expanded one level,
 * and no "Try it" — requests with a live key belong in the integrator's own tools, not a docs page.
 */
const OPTIONS = {
  hideHostname: false,
  expandResponses: "200,201",
  jsonSampleExpandLevel: 3,
  pathInMiddlePanel: true,
  sortTagsAlphabetically: false,
  theme: {
    colors: { primary: { main: "#4f46e5" } },
    typography: {
      fontFamily: 'ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif',
      headings: { fontFamily: 'ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif' },
      code: { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace' },
    },
    sidebar: { backgroundColor: "#fafafa" },
    rightPanel: { backgroundColor: "#18181b" },
  },
};

/** Renders the served OpenAPI document with Redoc's standalone bundle (served from /api-reference/redoc.js). */
export function RedocView({ specUrl }: { specUrl: string }) {
  const host = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<"loading" | "ready" | "failed">("loading");
  return (
    <>
      <Script
        src="/api-reference/redoc.js"
        strategy="afterInteractive"
        onReady={() => {
          const redoc = (window as unknown as { Redoc?: TRedoc }).Redoc;
          if (!redoc) return setState("failed");
          redoc.init(specUrl, OPTIONS, host.current, () => setState("ready"));
        }}
        onError={() => setState("failed")}
      />
      {state === "loading" ? <p className="px-6 py-10 text-sm text-zinc-500">Loading the reference…</p> : null}
      {state === "failed" ? (
        <p className="px-6 py-10 text-sm text-zinc-700">
          The reference viewer did not load. The document itself is at{" "}
          <a className="text-brand-700 underline" href={specUrl}>
            {specUrl}
          </a>
          .
        </p>
      ) : null}
      <div ref={host} data-testid="redoc" data-state={state} />
    </>
  );
}
