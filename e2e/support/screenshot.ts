import type { Page } from "@playwright/test";

/**
 * Screenshots committed under e2e/screenshots/ and looked at after every change to a page. Full page, except
 * while a modal dialog is open: its backdrop covers only the viewport, so a full-page capture misleads.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  const modalOpen = (await page.locator("dialog[open]").count()) > 0;
  await page.screenshot({ path: `e2e/screenshots/${name}.png`, fullPage: !modalOpen, animations: "disabled" });
}
