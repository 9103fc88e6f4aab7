import { expect, type Page } from "@playwright/test";
import { appRequest } from "./app-request";

/**
 * Creates an API key through the app's own API, signed in as `page` (the owner), in the default workspace with
 * the named role, and returns its value (shown once). 02-api-keys fills the organisation up to the 50-key cap
 * when the whole suite runs, so a place is freed first when needed. `origin`: a second app's (second-app.ts).
 */
export async function createApiKey(page: Page, name: string, roleName: string, origin?: string): Promise<string> {
  const roles = (await (await page.request.get("/api/app/roles")).json()) as { data: { id: string; name: string }[] };
  const workspaces = (await (await page.request.get("/api/app/workspaces")).json()) as { data: { id: string; isDefault: boolean }[] };
  const keys = (await (await page.request.get("/api/app/api-keys")).json()) as { data: { id: string; status: string }[] };
  const unrevoked = keys.data.filter((k) => k.status !== "REVOKED");
  if (unrevoked.length >= 50) expect((await appRequest(page, origin).post(`/api/app/api-keys/${unrevoked[0]!.id}/revoke`)).status()).toBe(200);
  const created = await appRequest(page, origin).post("/api/app/api-keys", {
    data: { name, roleId: roles.data.find((r) => r.name === roleName)!.id, workspaceId: workspaces.data.find((w) => w.isDefault)!.id },
  });
  expect(created.status()).toBe(201);
  return ((await created.json()) as { data: { value: string } }).data.value;
}
