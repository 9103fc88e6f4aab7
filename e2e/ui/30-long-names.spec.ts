/**
 * Names at their longest, with no space to break at, in the signed-in app's tables: each wraps in its cell, so at
 * 1280 px no table needs a sideways scroll, and at 390 px the page does not pan sideways and a row's buttons are
 * reachable (the table scrolls in its own box) and work.
 */
import { expect, test, type APIResponse, type Page } from "@playwright/test";
import { createApiKey } from "../support/api-key";
import { appRequest } from "../support/app-request";
import { signInAsOwner } from "../support/owner";
import { failOnPageErrors } from "../support/page-errors";
import { screenshotBoth } from "../support/screenshot";

test.describe.configure({ mode: "serial" });

failOnPageErrors();

/** A one-word name of `n` characters, unique to this run. */
const longName = (prefix: string, n: number) => `${prefix}${Date.now().toString(36)}${"X".repeat(n)}`.slice(0, n);

/** How far the table's own box scrolls sideways (0 when it fits). */
const overflow = (page: Page, table: string) => page.getByRole("region", { name: table }).evaluate((box) => box.scrollWidth - box.clientWidth);

/** Expects a 201, showing the answer's body when it is not. */
async function created(answer: Promise<APIResponse>) {
  const res = await answer;
  expect(res.status(), await res.text()).toBe(201);
}

test.beforeEach(async ({ page }) => {
  await signInAsOwner(page);
});

test("a 100-character role name wraps in the roles table, at 1280 and at 390 px", async ({ page }) => {
  const name = longName("Regionalvertriebsleitung", 100);
  expect((await appRequest(page).post("/api/app/roles", { data: { name } })).status()).toBe(201);
  await page.goto("/settings/roles");
  const row = page.getByTestId("role-row").filter({ hasText: name });
  await expect(row).toHaveCount(1);
  expect(await overflow(page, "Roles")).toBeLessThanOrEqual(0);
  await screenshotBoth(page, "roles-long-name");

  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  // The name's cell stays narrow enough that the row's buttons are a short scroll away, and they work.
  expect(
    await row
      .getByRole("cell")
      .first()
      .evaluate((el) => el.getBoundingClientRect().width),
  ).toBeLessThanOrEqual(256);
  const remove = row.getByRole("button", { name: `Delete ${name}` });
  await remove.scrollIntoViewIfNeeded();
  await remove.click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete role" }).click();
  await expect(row).toHaveCount(0);
});

test("long names fit the API keys, members, workspaces and templates tables at 1280 px", async ({ page }) => {
  const app = appRequest(page);
  const roles = (await (await page.request.get("/api/app/roles")).json()) as { data: { id: string; name: string }[] };
  const sender = roles.data.find((r) => r.name === "Sender")!.id;
  const keyName = longName("Buchhaltungsschnittstelle", 100);
  // createApiKey frees a place first when the suite has filled the organisation's 50 keys.
  await createApiKey(page, keyName, "Admin");
  const memberName = longName("Maximiliane", 200);
  const member = { method: "password", email: `${Date.now().toString(36)}@acme.test`, name: memberName, roleId: sender, password: "member-password-1" };
  await created(app.post("/api/app/members", { data: member }));
  const workspaceName = longName("Niederlassung", 100);
  await created(app.post("/api/app/workspaces", { data: { name: workspaceName, slug: `long-${Date.now().toString(36)}` } }));
  const templateName = longName("Rahmenvertrag", 200);
  await created(app.post("/api/app/templates", { data: { name: templateName } }));

  const pages = [
    { path: "/settings/api-keys", table: "API keys", name: keyName },
    { path: "/settings/members", table: "Members", name: memberName },
    { path: "/settings/workspaces", table: "Workspaces", name: workspaceName },
    { path: "/templates", table: "Templates", name: templateName },
  ];
  const scrolls: Record<string, number> = {};
  for (const p of pages) {
    await page.goto(p.path);
    await expect(page.getByRole("region", { name: p.table }).getByText(p.name, { exact: true }).first()).toBeVisible();
    scrolls[p.table] = Math.max(0, await overflow(page, p.table));
  }
  // Every table, so that one run names all that scroll.
  expect(scrolls).toEqual({ "API keys": 0, Members: 0, Workspaces: 0, Templates: 0 });
});
