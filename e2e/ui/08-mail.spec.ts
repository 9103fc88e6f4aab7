/**
 * Mail in the browser, against the built app with no SMTP_URL (so the outbox transport): the owner sends a test
 * message from Settings → Mail delivery and watches it become "In outbox" without a reload; the Mail page lists
 * it; the message page shows the HTML part in a sandboxed iframe and its links as text. Screenshots at desktop
 * and 390 px (nothing pans sideways on a phone). Waits are Playwright's polling expectations; nothing sleeps.
 */
import { expect, test, type Page } from "@playwright/test";
import { signInAsOwner } from "../support/owner";
import { failOnPageErrors } from "../support/page-errors";
import { screenshot } from "../support/screenshot";

test.describe.configure({ mode: "serial" });

failOnPageErrors();
test.beforeEach(async ({ page }) => {
  await signInAsOwner(page);
});

const fitsPhone = async (page: Page) => expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

test("a test message is kept in the outbox and shown with its preview and links", async ({ page }) => {
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Mail delivery" }).click();
  await expect(page.getByRole("heading", { name: "Mail", exact: true })).toBeVisible();
  await expect(page.getByText("No SMTP server is configured")).toBeVisible();
  await page.getByRole("button", { name: "Send test mail" }).click();
  const status = page.getByTestId("test-mail-status");
  await expect(status.getByText("In outbox")).toBeVisible();
  await screenshot(page, "mail-settings");

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Mail", exact: true }).click();
  await expect(page).toHaveURL(/\/mail$/);
  const table = page.getByRole("table", { name: "Messages" });
  const row = table.getByRole("row").filter({ hasText: "Foliosign test message" }).first();
  await expect(row).toBeVisible();
  await expect(row.getByText("Test message", { exact: true })).toBeVisible();
  await expect(row.getByText("In outbox")).toBeVisible();
  await screenshot(page, "mail");

  await row.getByRole("link", { name: "Foliosign test message" }).click();
  await expect(page.getByRole("heading", { name: "Foliosign test message" })).toBeVisible();
  const preview = page.locator('iframe[title="Preview of “Foliosign test message”"]');
  await expect(preview).toHaveAttribute("sandbox", "");
  await expect(preview.contentFrame().getByText("If you are reading it, Foliosign can send mail.")).toBeVisible();
  const links = page.getByRole("list", { name: "Links in this message" });
  await expect(links.getByRole("link")).toHaveText([/^http:\/\/127\.0\.0\.1:\d+$/]);
  await screenshot(page, "mail-message");
});

test("the Mail page and a message at 390 px", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/mail");
  const row = page.getByRole("table", { name: "Messages" }).getByRole("row").filter({ hasText: "Foliosign test message" }).first();
  await expect(row).toBeVisible();
  await fitsPhone(page);
  await screenshot(page, "mail-390");
  await row.getByRole("link", { name: "Foliosign test message" }).click();
  await expect(page.getByRole("heading", { name: "Foliosign test message" })).toBeVisible();
  await fitsPhone(page);
  await screenshot(page, "mail-message-390");
});
