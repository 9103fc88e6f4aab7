/**
 * The public /verify page against the built app, without signing in: it is reachable, labelled, refuses an
 * empty submit with a clear message, and says "Not sealed by this instance" for a PDF this instance never
 * sealed; screenshots at desktop width and 390 px. (A sealed file's "valid" and one-changed-byte "changed after
 * it was sealed" verdicts are proven through the same operation in server/domain/sealing/sealing-job.test.ts.)
 */
import { PDF, StandardFonts } from "@libpdf/core";
import { expect, test } from "@playwright/test";
import { screenshotBoth } from "../support/screenshot";

const pageErrors: string[] = [];
test.afterEach(() => {
  expect(pageErrors.splice(0)).toEqual([]);
});
test.beforeEach(({ page }) => {
  page.on("pageerror", (err) => pageErrors.push(err.stack ?? err.message));
});

async function plainPdf(): Promise<Buffer> {
  const pdf = PDF.create();
  const p = pdf.addPage({ size: "a4" });
  p.drawText("An unsigned agreement", { x: 56, y: 770, size: 20, font: StandardFonts.Helvetica });
  return Buffer.from(await pdf.save());
}

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
