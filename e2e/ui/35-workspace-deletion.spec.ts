/**
 * Deleting a workspace (docs/decisions/workspace-deletion.md): the owner deletes a test workspace from Settings →
 * Workspaces after typing its name (the button stays disabled until then); the default workspace offers no
 * Delete. At 1280 and 390 px, axe-clean.
 */
import { expect, test } from "@playwright/test";
import { appRequest } from "../support/app-request";
import { expectAxeClean } from "../support/axe";
import { signInAsOwner } from "../support/owner";
import { failOnPageErrors } from "../support/page-errors";
import { screenshot, screenshotBoth } from "../support/screenshot";

failOnPageErrors();

test("the owner deletes a test workspace after typing its name", async ({ page }) => {
  await signInAsOwner(page);
  const created = await appRequest(page).post("/api/app/workspaces", { data: { name: "Scratch sandbox", slug: "scratch-sandbox", test: true } });
  expect(created.status()).toBe(201);

  await page.goto("/settings/workspaces");
  await expect(page.getByTestId("workspace-switcher")).toContainText("Scratch sandbox");
  const defaultRow = page.getByTestId("workspace-row").filter({ hasText: "Default" }).first();
  await expect(defaultRow.getByRole("button", { name: /^Delete/ })).toHaveCount(0);
  await page.getByRole("button", { name: "Delete Scratch sandbox" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete “Scratch sandbox”?" });
  await expect(dialog).toContainText("Everything in this test workspace goes for good");
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  const confirm = dialog.getByRole("button", { name: "Delete workspace" });
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel("Type “Scratch sandbox” to confirm").fill("Scratch");
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel("Type “Scratch sandbox” to confirm").fill("Scratch sandbox");
  await expect(confirm).toBeEnabled();
  await expectAxeClean(page, "the delete-workspace dialog");
  await screenshot(page, "workspaces-delete-confirm");
  await dialog.getByLabel("Type “Scratch sandbox” to confirm").press("Enter");

  await expect(page.getByRole("status").filter({ hasText: "“Scratch sandbox” was deleted, with 0 packages and 0 templates." })).toBeVisible();
  await expect(page.getByTestId("workspace-row").filter({ hasText: "Scratch sandbox" })).toHaveCount(0);
  await expect(page.getByTestId("workspace-switcher")).not.toContainText("Scratch sandbox");
  await expectAxeClean(page, "workspaces after a deletion");
  await screenshotBoth(page, "workspaces-after-delete");
});
