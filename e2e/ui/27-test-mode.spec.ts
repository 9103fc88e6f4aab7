/**
 * Test mode (issue 23, item 2), in a real browser: the owner creates a test workspace (Settings → Workspaces,
 * "Test workspace"), its row shows TEST; switched to it, every page shows the TEST badge by the workspace and
 * the banner above the page (Overview and Packages checked), at 1280 and 390 px, axe-clean at both widths; a
 * live workspace shows neither. "Make test" asks first and says the keys are revoked. A test message queued in
 * the test workspace is kept in the outbox and marked TEST on the Mail page. Screenshots: test-mode-banner(-390),
 * test-mode-workspaces(-390), test-mode-mail(-390), test-mode-confirm.
 */
import { expect, test, type Page } from "@playwright/test";
import { expectAxeClean } from "../support/axe";
import { signInAsOwner } from "../support/owner";
import { screenshot, screenshotBoth } from "../support/screenshot";

const BANNER = /You are in a test workspace\. No mail leaves this instance/;

async function axeAtBoth(page: Page, where: string): Promise<void> {
  await expectAxeClean(page, `${where} at 1280 px`);
  const size = page.viewportSize()!;
  await page.setViewportSize({ width: 390, height: 844 });
  await expectAxeClean(page, `${where} at 390 px`);
  await page.setViewportSize(size);
}

test("a test workspace: created by the owner, badge and banner on every page, axe-clean at 1280 and 390 px", async ({ page }) => {
  await signInAsOwner(page);
  const suffix = Date.now().toString(36);
  const sandbox = `Sandbox ${suffix}`;
  const trial = `Trial ${suffix}`;

  await page.goto("/settings/workspaces");
  await page.getByRole("button", { name: "New workspace" }).click();
  let dialog = page.getByRole("dialog", { name: "New workspace" });
  await dialog.getByLabel("Name").fill(sandbox);
  await dialog.getByRole("checkbox", { name: /Test workspace/ }).check();
  await dialog.getByRole("button", { name: "Create workspace" }).click();
  await expect(dialog).toBeHidden();
  const sandboxRow = page.getByTestId("workspace-row").filter({ hasText: sandbox });
  await expect(sandboxRow).toContainText("Test");
  await expect(sandboxRow.getByRole("button", { name: `Make live ${sandbox}` })).toBeVisible();

  // A live one: "Make test" asks first and says what happens to its keys.
  await page.getByRole("button", { name: "New workspace" }).click();
  dialog = page.getByRole("dialog", { name: "New workspace" });
  await dialog.getByLabel("Name").fill(trial);
  await dialog.getByRole("button", { name: "Create workspace" }).click();
  await expect(dialog).toBeHidden();
  const trialRow = page.getByTestId("workspace-row").filter({ hasText: trial });
  await expect(trialRow).toContainText("Live");
  await trialRow.getByRole("button", { name: `Make test ${trial}` }).click();
  const confirm = page.getByRole("dialog", { name: `Make “${trial}” a test workspace?` });
  await expect(confirm).toContainText("Every API key of this workspace is revoked now; new keys read fsk_test_…");
  await screenshot(page, "test-mode-confirm");
  await confirm.getByRole("button", { name: "Make test" }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByText(`“${trial}” is now a test workspace; 0 API keys were revoked.`)).toBeVisible();
  await expect(trialRow).toContainText("Test");

  // Still in the live default workspace: no banner, no badge.
  await expect(page.getByTestId("test-mode-banner")).toHaveCount(0);

  // Into the test workspace: the switcher names it "(Test)"; the badge and the banner appear on every page.
  await page.getByTestId("workspace-switcher").selectOption({ label: `${sandbox} (Test)` });
  const banner = page.getByTestId("test-mode-banner");
  await expect(banner).toHaveText(BANNER);
  await screenshotBoth(page, "test-mode-workspaces");
  await axeAtBoth(page, "Workspaces in a test workspace");

  for (const path of ["/", "/packages"]) {
    await page.goto(path);
    await expect(page.getByTestId("test-mode-banner")).toHaveText(BANNER);
    await expect(page.locator("#app-navigation").getByText("Test", { exact: true })).toBeVisible();
  }
  // A message queued here is kept in the outbox and marked TEST on the Mail page.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Mail delivery" }).click();
  await page.getByRole("button", { name: "Send test mail" }).click();
  await expect(page.getByTestId("test-mail-status").getByText("In outbox")).toBeVisible();
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Mail", exact: true }).click();
  const row = page.getByRole("table", { name: "Messages" }).getByRole("row").filter({ hasText: "Foliosign test message" }).first();
  await expect(row.getByText("In outbox")).toBeVisible();
  await expect(row.getByText("Test", { exact: true })).toBeVisible();
  await screenshotBoth(page, "test-mode-mail");
  await axeAtBoth(page, "Mail in a test workspace");

  await page.goto("/");
  await screenshotBoth(page, "test-mode-banner");
  await axeAtBoth(page, "the Overview in a test workspace");

  // On a phone the navigation is folded away: the badge sits in the top bar.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole("banner").getByText("Test", { exact: true })).toBeVisible();
  await page.setViewportSize({ width: 1280, height: 800 });

  // Back to the default workspace: no banner (the next spec starts where it expects to).
  await page.getByTestId("workspace-switcher").selectOption({ label: "Default" });
  await expect(page.getByTestId("test-mode-banner")).toHaveCount(0);
});
