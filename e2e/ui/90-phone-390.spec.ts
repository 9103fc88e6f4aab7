/**
 * The app on a phone: every page at 390 px wide must fit (document.documentElement.scrollWidth <= 390: nothing
 * makes the page pan sideways; wide tables scroll inside their own box or become cards) and is screenshotted
 * as e2e/screenshots/<page>-390.png to be looked at. Also: the navigation collapses behind a Menu button, the
 * webhooks list shows each endpoint's state, 404s are branded with a way back (inside the shell when signed
 * in), the favicon is served, and the API reference renders the served document offline.
 */
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Page } from "@playwright/test";
import { appRequest } from "../support/app-request";
import { signInAsOwner } from "../support/owner";
import { screenshot } from "../support/screenshot";

test.describe.configure({ mode: "serial" });

const PHONE = { width: 390, height: 844 };
let server: http.Server | undefined;
let receiverUrl = "";

test.beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(200, { "content-type": "text/plain" }).end("ok"));
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(server!.address() as AddressInfo).port}/phone-check-with-a-rather-long-path/foliosign`;
});
test.afterAll(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
});

const pageErrors: string[] = [];
test.beforeEach(({ page }) => {
  page.on("pageerror", (err) => pageErrors.push(err.stack ?? err.message));
});
test.afterEach(() => {
  expect(pageErrors.splice(0)).toEqual([]);
});

/** `viewportOnly` for the long documentation pages, whose full-page captures would be megabytes. */
async function expectFits(page: Page, name: string, viewportOnly = false) {
  // Lists load after the page (client queries): measure once they are in, not the empty first paint.
  await page.waitForLoadState("networkidle");
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  if (viewportOnly) await page.screenshot({ path: `e2e/screenshots/${name}-390.png`, animations: "disabled" });
  else await screenshot(page, `${name}-390`);
  expect(width, `${name} is ${width}px wide at 390`).toBeLessThanOrEqual(PHONE.width);
}

/** Signs in at desktop width (the shared helper waits for the sidebar), then narrows to a phone. */
async function signInOnPhone(page: Page) {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInAsOwner(page);
  await page.setViewportSize(PHONE);
}

test("signed out: sign-in, the reference, the webhooks guide, /verify and the 404 fit at 390 px", async ({ page }) => {
  await page.setViewportSize(PHONE);
  const outside: string[] = [];
  page.on("request", (r) => {
    const url = new URL(r.url());
    if (!["127.0.0.1", "localhost"].includes(url.hostname) && url.protocol !== "blob:" && url.protocol !== "data:") outside.push(r.url());
  });

  await page.goto("/signin");
  await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
  await expectFits(page, "signin");

  await page.goto("/api-reference");
  await expect(page.getByTestId("redoc")).toHaveAttribute("data-state", "ready", { timeout: 30_000 });
  await expect(page.getByText("Send a signed test event to this endpoint").first()).toBeAttached();
  await expectFits(page, "api-reference", true);

  await page.goto("/api-reference/webhooks");
  await expect(page.getByRole("heading", { name: "Quickstart: a verified test event in ten minutes" })).toBeVisible();
  await expectFits(page, "webhooks-guide", true);

  const missing = await page.goto("/no-such-page");
  expect(missing?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "There is no page at this address." })).toBeVisible();
  await expect(page.getByRole("link", { name: "Go to Foliosign" })).toHaveAttribute("href", "/");
  await expectFits(page, "not-found");

  await page.goto("/verify");
  await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
  await expectFits(page, "verify");

  const icon = await page.request.get("/icon.svg");
  expect(icon.status()).toBe(200);
  expect(icon.headers()["content-type"]).toContain("svg");
  // The reference and its renderer are served by us: no reader's browser calls a CDN.
  expect(outside).toEqual([]);
});

test("signed in: every page of the app fits at 390 px, with the navigation behind a Menu button", async ({ page }) => {
  await signInOnPhone(page);

  // An endpoint with a delivered test event, so the list, the endpoint page and its log have content.
  const label = `Phone check ${randomUUID().slice(0, 8)}`;
  const created = await appRequest(page).post("/api/app/webhooks", {
    data: { url: receiverUrl, events: ["PACKAGE_SENT", "PACKAGE_COMPLETED"], description: label },
  });
  expect(created.status()).toBe(201);
  const endpointId = ((await created.json()) as { data: { id: string } }).data.id;
  expect((await appRequest(page).post(`/api/app/webhooks/${endpointId}/test-events`, { data: { event: "PACKAGE_SENT" } })).status()).toBe(201);

  await page.goto("/");
  const menu = page.getByRole("button", { name: "Menu" });
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
  await expectFits(page, "overview");
  // Escape closes the open menu and puts the focus back on its button (it stayed open, newcomer audit #16).
  await menu.click();
  await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Webhooks" }).focus();
  await page.keyboard.press("Escape");
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
  await expect(menu).toBeFocused();
  await menu.click();
  await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
  await expectFits(page, "menu-open");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Webhooks" }).click();
  await expect(page).toHaveURL(/\/webhooks$/);
  await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();

  // The list shows each endpoint's state at this width.
  const card = page.getByTestId("endpoint-card").filter({ hasText: label });
  await expect(card.getByText(/^(Active|Failing|Paused)$/)).toBeVisible();
  await expectFits(page, "webhooks");

  await page.goto(`/webhooks/${endpointId}`);
  // The delivery log shows the status at this width (the row's status cell is not clipped).
  await expect(page.getByTestId("delivery-row").first().getByText("DELIVERED", { exact: true })).toBeVisible({ timeout: 20_000 });
  await expectFits(page, "webhook-endpoint");

  // The earlier specs leave a template, a package and a message in this workspace: their pages are checked too.
  const firstId = async (path: string, list: string) => {
    const res = await page.request.get(path);
    expect(res.status(), path).toBe(200);
    const items = ((await res.json()) as { data: Record<string, { id: string }[]> }).data[list] ?? [];
    expect(items.length, `${path} lists something to check`).toBeGreaterThan(0);
    return items[0]!.id;
  };
  const templateId = await firstId("/api/app/templates?status=all", "templates");
  const packageId = await firstId("/api/app/packages", "packages");
  const messageId = await firstId("/api/app/mail", "messages");

  for (const [path, name] of [
    ["/packages", "packages"],
    ["/packages/new", "package-new"],
    [`/packages/${packageId}`, "package-detail"],
    ["/templates", "templates"],
    [`/templates/${templateId}`, "template-editor"],
    ["/library", "library"],
    ["/mail", "mail"],
    [`/mail/${messageId}`, "mail-message"],
    ["/settings/api-keys", "api-keys"],
    ["/settings/members", "members"],
    ["/settings/roles", "roles"],
    ["/settings/workspaces", "workspaces"],
    ["/settings/plan", "plan"],
    ["/settings/security", "security"],
    ["/settings/custom-fields", "custom-fields"],
    ["/settings/signing-groups", "signing-groups"],
    ["/settings/mail", "mail-settings"],
    ["/settings/activity", "activity-all"],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
    await expectFits(page, name);
  }

  const missing = await page.goto("/no-such-page");
  expect(missing?.status()).toBe(404);
  await expect(page.getByRole("button", { name: "Menu" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Back to the overview" })).toBeVisible();
  await expectFits(page, "not-found-signed-in");

  await page.goto("/webhooks/whep_does_not_exist");
  await expect(page.getByRole("heading", { name: "There is no page at this address." })).toBeVisible();
});
