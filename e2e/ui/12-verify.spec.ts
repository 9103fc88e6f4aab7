/**
 * The public /verify page against the built app, without signing in: it is reachable, labelled, refuses an
 * empty submit with a clear message, and says "Not sealed by this instance" for a PDF this instance never
 * sealed; screenshots at desktop width and 390 px. (A sealed file's "valid" and one-changed-byte "changed after
 * it was sealed" verdicts are proven through the same operation in server/domain/sealing/sealing-job.test.ts.)
 */
import { expect, test } from "@playwright/test";
import { failOnPageErrors } from "../support/page-errors";
import { titledPdf } from "../support/pdf";
import { screenshotBoth } from "../support/screenshot";

failOnPageErrors();

const plainPdf = () => titledPdf([["An unsigned agreement"]]);

test("anyone can check a PDF on /verify; an unsealed one is not sealed by this instance", async ({ page }) => {
  await page.goto("/verify");
  await expect(page.getByRole("heading", { name: "Verify a signed PDF", level: 1 })).toBeVisible();
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Choose a PDF file to check" })).toBeVisible();
  await screenshotBoth(page, "verify-empty");

  await page.getByLabel("PDF file").setInputFiles({ name: "agreement.pdf", mimeType: "application/pdf", buffer: await plainPdf() });
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByText("Not sealed by this instance")).toBeVisible();
  await expect(page.getByText("This file carries no seal of this instance")).toBeVisible();
  await screenshotBoth(page, "verify-not-sealed");
});
