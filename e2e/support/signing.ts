import { expect, type Page } from "@playwright/test";

/** On a signing page: agrees to sign electronically and waits for the document's second page to be laid out. */
export async function consent(page: Page): Promise<void> {
  await expect(page.getByRole("heading", { name: "Before you sign" })).toBeVisible();
  await page.getByLabel("I agree to sign electronically").check();
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.locator("[data-page-overlay='2']")).toBeVisible();
}
