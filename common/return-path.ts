/**
 * Where sign-in returns to: the page a signed-out visit was sent away from (`/signin?next=…`). Only a path of this
 * site is followed — never another origin, however it is spelled (`//host`, `/\host`, a tab or newline inside, an
 * absolute URL) — and never the sign-in or sign-out pages themselves; anything else returns to the start page.
 */
const BASE = "http://foliosign.invalid";

export function safeReturnPath(next: unknown): string {
  // A query may repeat a parameter (`?next=a&next=b` reads as an array): only one plain path is followed.
  if (typeof next !== "string" || !next.startsWith("/")) return "/";
  let url: URL;
  try {
    url = new URL(next, BASE);
  } catch {
    return "/";
  }
  if (url.origin !== BASE || /^\/(signin|signout)(\/|$)/.test(url.pathname)) return "/";
  return url.pathname + url.search + url.hash;
}

/** The sign-in page that returns to `path` once signed in (plain /signin for the start page or no path). */
export function signInPathFor(path: unknown): string {
  const next = safeReturnPath(path);
  return next === "/" ? "/signin" : `/signin?next=${encodeURIComponent(next)}`;
}
