/**
 * The template editor end to end against the built app: create a template, upload a two-page PDF made here
 * with @libpdf/core (progress bar, then pages drawn by pdf.js), add two roles, place a signature field for each
 * — the first by keyboard only ("Signature", then "Add Signature to page 1"), the second by dragging from the
 * palette onto page 2 — move a field with the arrow keys (autosaved), see why the template cannot be activated
 * until it can, and activate it. Each step is screenshotted at desktop width and at 390 px.
 * Waits are Playwright's polling expectations; nothing sleeps.
 */
import { expect, test } from "@playwright/test";
import { signInAsOwner } from "../support/owner";
import { failOnPageErrors } from "../support/page-errors";
import { titledPdf } from "../support/pdf";
import { screenshot, screenshotBoth } from "../support/screenshot";

test.describe.configure({ mode: "serial" });

failOnPageErrors();

test.beforeEach(async ({ page }) => {
  await signInAsOwner(page);
});

const leasePdf = () =>
  titledPdf(["Residential lease — terms", "Residential lease — signatures"].map((title) => [title, "The tenant and the landlord agree to the terms below."]));

let editorUrl = "";

test("the list starts empty and says how to start; a new template opens in the editor", async ({ page }) => {
  await page.goto("/templates");
  await expect(page.getByRole("heading", { name: "Templates", level: 1 })).toBeVisible();
  await expect(page.getByText("No templates yet")).toBeVisible();
  await screenshotBoth(page, "templates-empty");

  await page.getByRole("button", { name: "New template" }).first().click();
  const dialog = page.getByRole("dialog", { name: "New template" });
  await dialog.getByRole("button", { name: "Create and open" }).click();
  await expect(dialog.getByText("Enter a name")).toBeVisible();
  await dialog.getByLabel("Name").fill("Residential lease");
  await dialog.getByLabel("Description").fill("Two signers: tenant, then landlord");
  await screenshot(page, "templates-new-dialog");
  await dialog.getByRole("button", { name: "Create and open" }).click();

  await expect(page).toHaveURL(/\/templates\/tpl_/);
  editorUrl = new URL(page.url()).pathname;
  await expect(page.getByRole("heading", { name: "Residential lease", level: 1 })).toBeVisible();
  // The edit lock is taken on open: the tools are enabled.
  await expect(page.getByRole("button", { name: "Choose files" })).toBeEnabled();
  await expect(page.getByRole("button", { name: "Activate" })).toBeDisabled();
  await expect(page.getByTestId("activation-blockers")).toBeVisible();
  await screenshotBoth(page, "template-editor-new");
});

test("a PDF is uploaded with a progress bar and drawn page by page", async ({ page }) => {
  await page.goto(editorUrl);
  await page.getByLabel("Upload documents").setInputFiles({ name: "lease.pdf", mimeType: "application/pdf", buffer: await leasePdf() });
  const doc = page.getByTestId("template-document");
  await expect(doc.getByRole("heading", { name: "lease.pdf" })).toBeVisible();
  await expect(doc.getByText(/2 pages/)).toBeVisible();
  await expect(page.locator("[data-page-overlay='2']")).toBeVisible();
  await expect(page.getByText("Page 2 of 2")).toBeVisible();
  // Drawn by pdf.js: the canvas has pixels at the sheet's size.
  await expect.poll(() => page.locator("[data-page='1'] canvas").evaluate((c: HTMLCanvasElement) => c.width)).toBeGreaterThan(100);
  await screenshotBoth(page, "template-editor-uploaded");

  // A file the server refuses (not a PDF inside) is listed with the reason, and its document is removed again.
  await page.getByLabel("Upload documents").setInputFiles({ name: "broken.pdf", mimeType: "application/pdf", buffer: Buffer.from("not a PDF at all\n") });
  const broken = page.getByRole("list", { name: "Uploads" }).getByRole("listitem").filter({ hasText: "broken.pdf" });
  await expect(broken.getByRole("alert")).toHaveText("The file is not a PDF or a DOCX document (its content was checked, not its name)");
  await expect(doc).toHaveCount(1);
  await expect(page.getByText("Waiting for the file…")).toHaveCount(0);
  await broken.getByRole("button", { name: "Dismiss" }).click();

  // A file that is neither a PDF nor a DOCX is refused in the browser, in the same list as uploads, and dismissed.
  await page.getByLabel("Upload documents").setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("notes") });
  const refused = page.getByRole("list", { name: "Uploads" }).getByRole("listitem").filter({ hasText: "notes.txt" });
  await expect(refused.getByRole("alert")).toHaveText("Only PDF and Word (.docx) files can be added.");
  await screenshotBoth(page, "template-editor-upload-refused");
  await refused.getByRole("button", { name: "Dismiss" }).click();
  await expect(refused).toHaveCount(0);
});

test("two roles, a signature for each (keyboard, then drag), moved by arrow keys, then activated", async ({ page }) => {
  await page.goto(editorUrl);
  await expect(page.getByRole("button", { name: "Choose files" })).toBeEnabled();
  for (const name of ["Tenant", "Landlord"]) {
    await page.getByLabel("New role name").fill(name);
    await page.getByRole("button", { name: "Add role" }).click();
    await expect(page.getByLabel(/Name of role/).last()).toHaveValue(name);
  }
  await expect(page.getByTestId("role-row")).toHaveCount(2);
  // A role with nothing to sign would let its signer "sign" nothing: each needs a required signature field.
  await expect(page.getByTestId("activation-blockers").getByRole("listitem")).toHaveText([
    "Give the role “Tenant” a required signature field",
    "Give the role “Landlord” a required signature field",
  ]);
  await screenshotBoth(page, "template-editor-roles");

  // Keyboard only: choose the type, then the page's "Add" button.
  await page.getByLabel("New fields are for").selectOption({ label: "1. Tenant" });
  await page.getByTestId("palette-signature").focus();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("palette-signature")).toHaveAttribute("aria-pressed", "true");
  await page.getByRole("button", { name: "Add Signature to page 1" }).focus();
  await page.keyboard.press("Enter");
  const tenantField = page.locator("[data-testid='template-field'][data-role-index='0']");
  await expect(tenantField).toHaveCount(1);
  await expect(page.getByTestId("save-state")).toHaveText("Saved");

  // Arrow keys move it; the burst is saved once.
  const before = await tenantField.boundingBox();
  await tenantField.focus();
  for (let i = 0; i < 5; i++) await page.keyboard.press("ArrowRight");
  await expect.poll(async () => (await tenantField.boundingBox())!.x).toBeGreaterThan(before!.x);
  await expect(page.getByTestId("field-panel")).toContainText(/Page 1 · 82, 72 pt/);
  await expect(page.getByTestId("save-state")).toHaveText("Saved");
  await page.getByTestId("palette-signature").click();

  // Pointer: drag from the palette onto page 2.
  await page.getByLabel("New fields are for").selectOption({ label: "2. Landlord" });
  const source = (await page.getByTestId("palette-signature").boundingBox())!;
  const target = page.locator("[data-page-overlay='2']");
  await target.scrollIntoViewIfNeeded();
  const box = (await target.boundingBox())!;
  const sourceNow = (await page.getByTestId("palette-signature").boundingBox()) ?? source;
  await page.mouse.move(sourceNow.x + sourceNow.width / 2, sourceNow.y + sourceNow.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height * 0.7, { steps: 12 });
  await page.mouse.up();
  const landlordField = page.locator("[data-testid='template-field'][data-role-index='1']");
  await expect(landlordField).toHaveCount(1);
  await expect(page.getByTestId("save-state")).toHaveText("Saved");
  await screenshotBoth(page, "template-editor-fields");

  // Everything the server needs is there: the blockers are gone and the template becomes ACTIVE.
  await expect(page.getByTestId("activation-blockers")).toHaveCount(0);
  await page.getByRole("button", { name: "Activate" }).click();
  await expect(page.getByRole("button", { name: "Archive" })).toBeVisible();
  await expect(page.getByTestId("active-template-note")).toBeVisible();
  await screenshotBoth(page, "template-editor-active");

  // While ACTIVE, removing the Landlord's only signature is refused with the reason; the field stays.
  await landlordField.click();
  await page.getByRole("button", { name: "Delete field" }).click();
  const notSaved = page.getByRole("alert").filter({ hasText: "1 change was not saved" });
  await expect(notSaved).toContainText(
    "Set the template back to Draft before this change, which would stop it making packages: Give the role “Landlord” a required signature field",
  );
  await expect(landlordField).toHaveCount(1);
  await screenshotBoth(page, "template-editor-active-refused");
  await notSaved.getByRole("button", { name: "Dismiss" }).click();
  await expect(notSaved).toHaveCount(0);

  await page.goto("/templates");
  const row = page.getByTestId("template-row").filter({ hasText: "Residential lease" });
  await expect(row).toContainText("Active");
  await screenshotBoth(page, "templates-list");
  await page.getByRole("tab", { name: "Draft" }).click();
  await expect(page.getByText("No template matches")).toBeVisible();
});
