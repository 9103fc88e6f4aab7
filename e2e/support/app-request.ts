import { test, type APIRequestContext, type Page } from "@playwright/test";

type TMethod = "get" | "post" | "put" | "patch" | "delete";
export type TAppRequest = Pick<APIRequestContext, TMethod>;

/**
 * `page.request` (the page's cookies) sending what the app's own page sends with a write: its `Origin`. The
 * app refuses a write to /api/app without `Sec-Fetch-Site: same-origin` or that Origin
 * (server/auth/same-origin-write.ts), and Playwright's API requests send neither by themselves. `origin` is
 * the shared server's unless a spec talks to a second app of its own.
 */
export function appRequest(page: Page, origin = new URL(test.info().project.use.baseURL!).origin): TAppRequest {
  const request = page.request;
  const withOrigin = <O extends { headers?: Record<string, string> }>(options: O | undefined) => ({ ...options, headers: { origin, ...options?.headers } });
  return {
    get: (url, options) => request.get(url, options),
    post: (url, options) => request.post(url, withOrigin(options)),
    put: (url, options) => request.put(url, withOrigin(options)),
    patch: (url, options) => request.patch(url, withOrigin(options)),
    delete: (url, options) => request.delete(url, withOrigin(options)),
  };
}
