"use client";

/**
 * The embedded signing page's messages to the page that frames it (docs/decisions/embedded-signing.md): only
 * with `postMessage(message, origin)` to the one origin the URL was issued for, never `*`, and never a token —
 * `{ source: "foliosign", version: 1, type, packageId, sessionId, … }`. Outside an embedded page every call is a
 * no-op, so the signing page's components call `useEmbedEvents()` whether or not they are framed.
 */
import { createContext, useCallback, useContext, useEffect, useRef, type ReactNode } from "react";

export type TEmbedTarget = { origin: string; packageId: string; sessionId: string };
export type TEmbedEventType = "ready" | "field-signed" | "completed" | "declined" | "error";
type TPost = (type: TEmbedEventType, extra?: Record<string, string>) => void;

const EmbedContext = createContext<TPost>(() => {});

export function useEmbedEvents(): TPost {
  return useContext(EmbedContext);
}

/**
 * Provides the poster, and on mount says `ready` (with the page's `state`) — or `error` with `failure` when the
 * page cannot sign (the URL was used or expired, the session ended).
 */
export function EmbedFrame({ target, state, failure, children }: { target: TEmbedTarget; state: string; failure?: string; children: ReactNode }) {
  const post = useCallback<TPost>(
    (type, extra = {}) => {
      if (typeof window === "undefined" || window.parent === window) return;
      window.parent.postMessage({ source: "foliosign", version: 1, type, packageId: target.packageId, sessionId: target.sessionId, ...extra }, target.origin);
    },
    [target.origin, target.packageId, target.sessionId],
  );
  const said = useRef(false);
  useEffect(() => {
    if (said.current) return;
    said.current = true;
    if (failure) post("error", { message: failure });
    else post("ready", { state });
  }, [post, failure, state]);
  return <EmbedContext.Provider value={post}>{children}</EmbedContext.Provider>;
}
