/**
 * Deleting a workspace (docs/decisions/workspace-deletion.md): the owner deletes a test workspace from Settings →
 * Workspaces after typing its name (the button stays disabled until then); the default workspace offers no
 * Delete; a workspace that has sent says so and offers no switch of mode (nor Delete while live). At 1280 and 390
 * px, axe-clean.
 */
import { expect, test } from "@playwright/test";
import { appRequest } from "../support/app-request";
import { expectAxeClean } from "../support/axe";
import { signInAsOwner } from "../support/owner";
import { failOnPageErrors } from "../support/page-errors";
import { setUpServiceAgreement } from "../support/service-agreement";
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
  await expect(dialog.getByTestId("workspace-contents")).toHaveText("It holds 0 packages, 0 templates, 0 API keys and 0 webhook endpoints.");
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

test("a workspace that has sent says so, and offers no switch of mode and no Delete while it is live", async ({ page, request }) => {
  const agreement = await setUpServiceAgreement(page, request, "Workspace deletion e2e");
  await agreement.sentPackage(request, "Sent from the default workspace");
  const created = await appRequest(page).post("/api/app/workspaces", { data: { name: "Never sent", slug: "never-sent", test: false } });
  expect(created.status()).toBe(201);

  await page.goto("/settings/workspaces");
  const defaultRow = page.getByTestId("workspace-row").filter({ hasText: "Default" }).first();
  await expect(defaultRow).toContainText("Has sent packages");
  await expect(defaultRow.getByRole("button", { name: /^Make (test|live)/ })).toHaveCount(0);
  await expect(defaultRow.getByRole("button", { name: /^Delete/ })).toHaveCount(0);
  const unsent = page.getByTestId("workspace-row").filter({ hasText: "Never sent" });
  await expect(unsent).not.toContainText("Has sent packages");
  await expect(unsent.getByRole("button", { name: "Make test Never sent" })).toBeVisible();
  await expect(unsent.getByRole("button", { name: "Delete Never sent" })).toBeVisible();
  await expectAxeClean(page, "workspaces, one of which has sent");
  await screenshotBoth(page, "workspaces-has-sent");
});
