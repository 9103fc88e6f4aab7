/**
 * An allowed embed origin (issue 23, docs/decisions/embedded-signing.md), validated strictly: the scheme, host and
 * port of the integrator's page exactly as a browser serialises it (`https://app.example.com`,
 * `http://127.0.0.1:4000`) — https, or http only for a loopback host (development and tests); no path (not even
 * `/`), query, fragment, user info, default port or wildcard, and lower case. The value becomes a
 * `frame-ancestors` source and a `postMessage` target origin, so what is stored must be exactly one origin.
 * Shared by the browser (the settings editor checks as the member types) and the server (the schema).
 */

/** How many origins a workspace may list. */
export const MAX_EMBED_ORIGINS = 20;

const LOOPBACK_HOSTS = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/;

/** Why `value` is not an allowed embed origin, or null when it is one. */
export function embedOriginProblem(value: string): string | null {
  if (value.length > 300) return "At most 300 characters";
  if (value.includes("*")) return "Wildcards are not allowed: list each origin";
  if (!URL.canParse(value)) return "Enter an origin such as https://app.example.com";
  const url = new URL(value);
  if (url.protocol !== "https:" && url.protocol !== "http:") return "Only https origins (or http on a loopback host)";
  if (url.protocol === "http:" && !LOOPBACK_HOSTS.test(url.hostname)) return "Only https origins (or http on a loopback host)";
  if (url.username || url.password) return "An origin has no user name or password";
  if (url.origin !== value) {
    if (value.toLowerCase() === url.origin || `${url.origin}/` === value.toLowerCase() || url.pathname !== "/" || url.search || url.hash) {
      return `Only the scheme, host and port, exactly: ${url.origin}`;
    }
    return `Write it as ${url.origin}`;
  }
  return null;
}
