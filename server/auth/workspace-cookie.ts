/**
 * The workspace the member chose in the shell's switcher, kept in a cookie. It is only a wish: every request
 * validates it against the member's organisation (resolveCurrentWorkspace) and falls back to the default.
 */
import { cookies } from "next/headers";

export const WORKSPACE_COOKIE = "foliosign_workspace";

/**
 * A usable workspace id, or null (the default workspace): the cookie comes from the browser and may be
 * anything. A NUL character cannot even be compared in PostgreSQL (the query would throw).
 */
function usableId(value: string | undefined): string | null {
  return value && !value.includes("\u0000") ? value : null;
}

/** From a route handler's request. A malformed value (bad percent-encoding) means no choice, never an error. */
export function workspaceCookieFrom(req: Request): string | null {
  for (const part of (req.headers.get("cookie") ?? "").split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name !== WORKSPACE_COOKIE) continue;
    try {
      return usableId(decodeURIComponent(rest.join("=")));
    } catch {
      return null;
    }
  }
  return null;
}

/** From a server component (pages, layouts). */
export async function workspaceCookie(): Promise<string | null> {
  return usableId((await cookies()).get(WORKSPACE_COOKIE)?.value);
}

export async function setWorkspaceCookie(workspaceId: string): Promise<void> {
  (await cookies()).set(WORKSPACE_COOKIE, workspaceId, { httpOnly: true, sameSite: "lax", path: "/", maxAge: 365 * 86_400 });
}
