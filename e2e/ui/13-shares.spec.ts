/**
 * Sharing a package, end to end against the built app. A Sender (no permission to see every package) cannot
 * open the owner's package (404) and does not find it in the list; the owner shares it from the package
 * page's "Shared with" panel (empty state, the member picker), the timeline records it; the Sender now finds
 * it in the list and opens it, with the panel read-only for them; the owner stops sharing after the
 * confirmation and the Sender gets 404 again. Screenshots at desktop width and at 390 px, where nothing may
 * scroll sideways. Waits are Playwright's polling expectations; nothing sleeps.
 */
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { appRequest, type TAppRequest } from "../support/app-request";
import { OWNER, signIn, signInAsOwner, signOut } from "../support/owner";
import { failOnPageErrors } from "../support/page-errors";
import { titledPdf } from "../support/pdf";
import { screenshot } from "../support/screenshot";

test.describe.configure({ mode: "serial" });

failOnPageErrors();

const PENNY = { name: "Penny Paralegal", email: "penny@acme.test", password: "penny-password-1" };
const TITLE = "Supplier agreement — Northwind";
let packagePath = "";

async function ok<T>(res: Awaited<ReturnType<APIRequestContext["post"]>>): Promise<T> {
  expect(res.ok(), `${res.url()} answered ${res.status()}: ${await res.text()}`).toBe(true);
  return ((await res.json()) as { data: T }).data;
}

/** A draft package through /api/app: an ACTIVE one-role template (a one-page PDF, a signature), then the package. */
async function createDraftPackage(request: TAppRequest): Promise<string> {
  const base = "/api/app/templates";
  const tpl = await ok<{ id: string }>(await request.post(base, { data: { name: "Supplier agreement (e2e shares)" } }));
  const bytes = await titledPdf([["Supplier agreement"]]);
  const added = await ok<{ document: { id: string }; uploadUrl: string }>(
    await request.post(`${base}/${tpl.id}/documents`, { data: { name: "supplier-agreement.pdf", fileSize: bytes.length } }),
  );
  expect((await request.put(added.uploadUrl, { data: bytes, headers: { "content-type": "application/pdf" } })).ok()).toBe(true);
  await ok(await request.post(`${base}/${tpl.id}/roles`, { data: { name: "Supplier" } }));
  await ok(
    await request.post(`${base}/${tpl.id}/fields`, {
      data: { documentId: added.document.id, roleIndex: 0, type: "signature", page: 1, x: 56, y: 600, width: 180, height: 48 },
    }),
  );
  await ok(await request.patch(`${base}/${tpl.id}`, { data: { status: "ACTIVE" } }));
  const pkg = await ok<{ id: string }>(
    await request.post("/api/app/packages/from-template", {
      data: { templateId: tpl.id, title: TITLE, recipients: [{ email: "sales@northwind.example.com", name: "Nora Northwind", roleIndex: 0 }] },
    }),
  );
  return `/packages/${pkg.id}`;
}

/** Desktop, then the same page at a phone's 390 px (nothing wider than the screen), then back to desktop. */
async function both(page: Page, name: string) {
  await screenshot(page, name);
  const size = page.viewportSize()!;
  await page.setViewportSize({ width: 390, height: 844 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await screenshot(page, `${name}-390`);
  await page.setViewportSize(size);
}

test("the owner makes a Sender and a draft package; the Sender cannot see it", async ({ page }) => {
  await signInAsOwner(page);
  const roles = await ok<{ id: string; builtIn: string | null }[]>(await page.request.get("/api/app/roles"));
  const sender = roles.find((r) => r.builtIn === "sender")!;
  await ok(
    await appRequest(page).post("/api/app/members", {
      data: { method: "password", name: PENNY.name, email: PENNY.email, roleId: sender.id, password: PENNY.password },
    }),
  );
  packagePath = await createDraftPackage(appRequest(page));
  await signOut(page);

  await signIn(page, PENNY.email, PENNY.password);
  await page.goto("/packages");
  await expect(page.getByRole("heading", { name: "Packages", level: 1 })).toBeVisible();
  await expect(page.getByText(TITLE)).toHaveCount(0);
  const res = await page.goto(packagePath);
  expect(res?.status()).toBe(404);
  await expect(page.getByText("404 · Not found")).toBeVisible();
});

test("the owner shares it from the package page; the timeline records it", async ({ page }) => {
  await signInAsOwner(page);
  await page.goto(packagePath);
  const panel = page.getByTestId("package-shares");
  await expect(panel.getByTestId("shares-empty")).toHaveText(/Not shared with anyone yet/);
  const picker = panel.getByLabel("Share with a member");
  await expect(picker.locator("option", { hasText: PENNY.email })).toHaveCount(1);
  // The owner is not offered: they see it anyway.
  await expect(picker.locator("option", { hasText: OWNER.email })).toHaveCount(0);
  await both(page, "package-shares-empty");

  await picker.selectOption({ label: `${PENNY.name} (${PENNY.email})` });
  await panel.getByRole("button", { name: "Add" }).click();
  const row = panel.getByTestId("share-row").filter({ hasText: PENNY.email });
  await expect(row).toContainText(`Shared by ${OWNER.name}`);
  await expect(picker.locator("option", { hasText: PENNY.email })).toHaveCount(0);
  const event = page.getByTestId("timeline-event").first();
  await expect(event).toContainText("Shared");
  await expect(event).toContainText(`With ${PENNY.email}`);
  await both(page, "package-shares-one");
});

test("the Sender now finds and opens it; the panel is read-only for them", async ({ page }) => {
  await signIn(page, PENNY.email, PENNY.password);
  await page.goto("/packages");
  await page.getByRole("link", { name: TITLE }).click();
  await expect(page).toHaveURL(new RegExp(`${packagePath}$`));
  await expect(page.getByRole("heading", { name: TITLE, level: 1 })).toBeVisible();
  const panel = page.getByTestId("package-shares");
  await expect(panel.getByTestId("share-row")).toContainText(PENNY.email);
  await expect(panel.getByText("Only the package's owner and members who can see every package can change this.")).toBeVisible();
  await expect(panel.getByRole("button", { name: /Remove|Stop sharing/ })).toHaveCount(0);
  await expect(panel.getByLabel("Share with a member")).toHaveCount(0);
  await both(page, "package-shares-read-only");
});

test("the owner stops sharing after the confirmation; the Sender gets 404 again", async ({ page }) => {
  await signInAsOwner(page);
  await page.goto(packagePath);
  const panel = page.getByTestId("package-shares");
  await panel.getByRole("button", { name: `Stop sharing with ${PENNY.name}` }).click();
  const confirm = page.getByRole("dialog", { name: `Stop sharing with ${PENNY.name}?` });
  await expect(confirm).toContainText("no longer see this package");
  await both(page, "package-shares-remove-confirm");
  await confirm.getByRole("button", { name: "Stop sharing" }).click();
  await expect(confirm).toBeHidden();
  await expect(panel.getByTestId("shares-empty")).toBeVisible();
  await expect(page.getByTestId("timeline-event").first()).toContainText("Stopped sharing");
  await signOut(page);

  await signIn(page, PENNY.email, PENNY.password);
  const res = await page.goto(packagePath);
  expect(res?.status()).toBe(404);
});
