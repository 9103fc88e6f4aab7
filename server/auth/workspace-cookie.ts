/**
 * The workspace the member chose in the shell's switcher, kept in a cookie. It is only a wish: every request
 * validates it against the member's organisation (resolveCurrentWorkspace) and falls back to the default.
 */
import { cookies } from "next/headers";

export const WORKSPACE_COOKIE = "foliosign_workspace";

/** From a route handler's request. */
export function workspaceCookieFrom(req: Request): string | null {
  for (const part of (req.headers.get("cookie") ?? "").split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === WORKSPACE_COOKIE) return decodeURIComponent(rest.join("=")) || null;
  }
  return null;
}

/** From a server component (pages, layouts). */
export async function workspaceCookie(): Promise<string | null> {
  return (await cookies()).get(WORKSPACE_COOKIE)?.value ?? null;
}

export async function setWorkspaceCookie(workspaceId: string): Promise<void> {
  (await cookies()).set(WORKSPACE_COOKIE, workspaceId, { httpOnly: true, sameSite: "lax", path: "/", maxAge: 365 * 86_400 });
}
