/**
 * Reference data in the browser, end to end against the built app: a signing group created with a member
 * (and a duplicate name refused with the server's message), the last member of a group a template role uses
 * kept with the server's reason (product audit item 3), a custom field created (a bad key shown under
 * its field from the 422 details), a PDF uploaded to the library through the file picker with its progress
 * bar (a non-PDF refused with the inspector's message), renamed, and deleted behind a confirmation. Each page
 * is screenshotted at desktop width and at 390 px.
 */
import { PDF } from "@libpdf/core";
import { expect, test, type Page } from "@playwright/test";
import { createApiKey } from "../support/api-key";
import { keyApi } from "../support/key-api";
import { signInAsOwner } from "../support/owner";
import { screenshot, screenshotBoth } from "../support/screenshot";

test.describe.configure({ mode: "serial" });

async function tinyPdf(): Promise<Buffer> {
  const pdf = PDF.create();
  pdf.addPage({ size: "a4" });
  pdf.addPage({ size: "a4" });
  return Buffer.from(await pdf.save());
}

async function atPhoneWidth(page: Page, name: string) {
  const desktop = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, name);
  if (desktop) await page.setViewportSize(desktop);
}

test("signing groups: empty state, create with a member, duplicate name refused, edit members", async ({ page }) => {
  await signInAsOwner(page);
  const nav = page.getByRole("navigation", { name: "Main" });
  await nav.getByRole("link", { name: "Signing groups" }).click();
  await expect(page.getByRole("heading", { name: "Signing groups", level: 1 })).toBeVisible();
  await expect(page.getByText("No signing groups yet")).toBeVisible();
  await screenshot(page, "signing-groups-empty");

  await page.getByRole("button", { name: "New group" }).first().click();
  const dialog = page.getByRole("dialog", { name: "New signing group" });
  await dialog.getByLabel("Group name").fill("Legal team");
  await dialog.getByLabel("Email of member 1").fill("not-an-email");
  await dialog.getByRole("button", { name: "Create group" }).click();
  await expect(dialog.getByText("Enter a valid email address")).toBeVisible();
  await screenshot(page, "signing-groups-create-error");
  await dialog.getByLabel("Email of member 1").fill("lena@acme.test");
  await dialog.getByLabel(/^Name/).fill("Lena Legal");
  await dialog.getByRole("button", { name: "Create group" }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByTestId("signing-group-row").filter({ hasText: "Legal team" });
  await expect(row).toContainText("Lena Legal");
  await expect(row).toContainText("1 member");

  await page.getByRole("button", { name: "New group" }).click();
  await dialog.getByLabel("Group name").fill("legal TEAM");
  await dialog.getByRole("button", { name: "Create group" }).click();
  await expect(dialog.getByText('A signing group named "legal TEAM" already exists in this workspace')).toBeVisible();
  await dialog.getByRole("button", { name: "Cancel" }).click();

  await row.getByRole("button", { name: "Edit Legal team" }).click();
  const edit = page.getByRole("dialog", { name: "Edit “Legal team”" });
  await edit.getByLabel("Email", { exact: true }).fill("marc@acme.test");
  await edit.getByRole("button", { name: "Add", exact: true }).click();
  await expect(edit.getByRole("button", { name: "Remove marc@acme.test" })).toBeVisible();
  await screenshot(page, "signing-groups-edit");
  await edit.getByRole("button", { name: "Done" }).click();
  await expect(row).toContainText("2 members");
  await screenshot(page, "signing-groups");
  await atPhoneWidth(page, "signing-groups-390");
});

test("the last member of a group a template role uses cannot be removed; the dialog says why", async ({ page, request }) => {
  await signInAsOwner(page);
  const api = keyApi(request, await createApiKey(page, "Reference data e2e", "Admin"));
  const group = (await (await page.request.get("/api/app/signing-groups")).json()) as { data: { signingGroups: { id: string; name: string }[] } };
  const legal = group.data.signingGroups.find((g) => g.name === "Legal team")!;
  const template = await api.post<{ id: string }>("/templates", { name: "Engagement letter" });
  await api.post(`/templates/${template.id}/roles`, { name: "Counsel", signingGroupId: legal.id });

  await page.goto("/settings/signing-groups");
  const row = page.getByTestId("signing-group-row").filter({ hasText: "Legal team" });
  await row.getByRole("button", { name: "Edit Legal team" }).click();
  const edit = page.getByRole("dialog", { name: "Edit “Legal team”" });
  await edit.getByRole("button", { name: "Remove marc@acme.test" }).click();
  await expect(edit.getByRole("button", { name: "Remove marc@acme.test" })).toHaveCount(0);
  await edit.getByRole("button", { name: "Remove lena@acme.test" }).click();
  await expect(edit.getByRole("alert")).toHaveText(
    "lena@acme.test is the last member of “Legal team”, which template roles use (“Counsel” in “Engagement letter”): add another member first, or take the group off those roles",
  );
  await expect(edit.getByRole("button", { name: "Remove lena@acme.test" })).toBeVisible();
  await screenshotBoth(page, "signing-groups-last-member-409");
  await edit.getByRole("button", { name: "Done" }).click();
  await expect(row).toContainText("1 member");
});

test("custom fields: empty state, bad key shown under the field, create, list", async ({ page }) => {
  await signInAsOwner(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Custom fields" }).click();
  await expect(page.getByRole("heading", { name: "Custom fields", level: 1 })).toBeVisible();
  await expect(page.getByText("No custom fields yet")).toBeVisible();
  await screenshot(page, "custom-fields-empty");

  await page.getByRole("button", { name: "New field" }).first().click();
  const dialog = page.getByRole("dialog", { name: "New custom field" });
  await dialog.getByLabel("Key").fill("1 cost centre");
  await dialog.getByLabel("Label").fill("Cost centre");
  await dialog.getByRole("button", { name: "Create field" }).click();
  await expect(dialog.getByText("Use letters, digits, _ . and - only, starting with a letter")).toBeVisible();
  await expect(dialog.getByLabel("Key")).toHaveAttribute("aria-invalid", "true");
  await screenshot(page, "custom-fields-create-error");
  await dialog.getByLabel("Key").fill("costCentre");
  await dialog.getByRole("button", { name: "Create field" }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByTestId("custom-field-row").filter({ hasText: "costCentre" });
  await expect(row).toContainText("Cost centre");
  await expect(row).toContainText("Active");
  await expect(row).toContainText("Every template");
  await screenshot(page, "custom-fields");
  await atPhoneWidth(page, "custom-fields-390");
});

test("library: empty state, upload with progress, refusal of a non-PDF, search, rename, delete", async ({ page }) => {
  await signInAsOwner(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Library" }).click();
  await expect(page.getByRole("heading", { name: "Library", level: 1 })).toBeVisible();
  await expect(page.getByText("The library is empty")).toBeVisible();
  await screenshot(page, "library-empty");
  await atPhoneWidth(page, "library-empty-390");

  const input = page.getByTestId("library-file-input");
  await input.setInputFiles([
    { name: "Mutual NDA.pdf", mimeType: "application/pdf", buffer: await tinyPdf() },
    { name: "notes.pdf", mimeType: "application/pdf", buffer: Buffer.from("these are notes, not a PDF") },
  ]);
  const good = page.getByTestId("library-upload").filter({ hasText: "Mutual NDA.pdf" });
  await expect(good).toContainText("Added");
  await expect(good.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "100");
  const bad = page.getByTestId("library-upload").filter({ hasText: "notes.pdf" });
  await expect(bad).toContainText("The file is not a PDF or a DOCX document");
  const row = page.getByTestId("library-row").filter({ hasText: "Mutual NDA" });
  await expect(row).toContainText("2");
  await expect(page.getByTestId("library-row")).toHaveCount(1);
  await screenshot(page, "library");
  await atPhoneWidth(page, "library-390");

  await page.getByRole("searchbox", { name: "Search the library by name" }).fill("zzz");
  await expect(page.getByText("No document matches “zzz”")).toBeVisible();
  await page.getByRole("searchbox", { name: "Search the library by name" }).fill("nda");
  await expect(row).toBeVisible();

  await row.getByRole("button", { name: "Rename Mutual NDA" }).click();
  const rename = page.getByRole("dialog", { name: "Rename document" });
  await rename.getByLabel("Name").fill("");
  await rename.getByRole("button", { name: "Save" }).click();
  await expect(rename.getByText("Enter a name")).toBeVisible();
  await rename.getByLabel("Name").fill("NDA (mutual, 2026)");
  await rename.getByRole("button", { name: "Save" }).click();
  await expect(rename).toBeHidden();
  const renamed = page.getByTestId("library-row").filter({ hasText: "NDA (mutual, 2026)" });
  await expect(renamed).toBeVisible();

  await renamed.getByRole("button", { name: "Delete NDA (mutual, 2026)" }).click();
  const confirm = page.getByRole("dialog", { name: "Delete “NDA (mutual, 2026)” from the library?" });
  await expect(confirm).toBeVisible();
  await screenshot(page, "library-delete-confirm");
  await confirm.getByRole("button", { name: "Delete document" }).click();
  await expect(confirm).toBeHidden();
  await page.getByRole("searchbox", { name: "Search the library by name" }).fill("");
  await expect(page.getByText("The library is empty")).toBeVisible();
});
