/**
 * A role named with 100 characters and no space (the longest name the form takes) in the roles table: its name
 * wraps in its cell, so at 1280 px the table fits without a sideways scroll, and at 390 px the page does not pan
 * sideways and the row's Edit and Delete buttons are reachable (the table scrolls in its own box) and work.
 */
import { expect, test } from "@playwright/test";
import { appRequest } from "../support/app-request";
import { signInAsOwner } from "../support/owner";
import { failOnPageErrors } from "../support/page-errors";
import { screenshotBoth } from "../support/screenshot";

failOnPageErrors();

const NAME = `Regionalvertriebsleitung${"X".repeat(76)}`;

test("a 100-character one-word role name wraps in the roles table, at 1280 and at 390 px", async ({ page }) => {
  await signInAsOwner(page);
  const made = await appRequest(page).post("/api/app/roles", { data: { name: NAME } });
  expect([201, 409]).toContain(made.status());
  await page.goto("/settings/roles");
  const row = page.getByTestId("role-row").filter({ hasText: NAME });
  await expect(row).toHaveCount(1);
  const table = page.getByRole("region", { name: "Roles" });
  const overflow = () => table.evaluate((box) => box.scrollWidth - box.clientWidth);
  expect(await overflow()).toBeLessThanOrEqual(0);
  await screenshotBoth(page, "roles-long-name");

  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  // The name's cell stays narrow enough that the row's buttons are a short scroll away, and they work.
  const nameWidth = await row
    .getByRole("cell")
    .first()
    .evaluate((el) => el.getBoundingClientRect().width);
  expect(nameWidth).toBeLessThanOrEqual(256);
  const remove = row.getByRole("button", { name: `Delete ${NAME}` });
  await remove.scrollIntoViewIfNeeded();
  await remove.click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Delete role" }).click();
  await expect(row).toHaveCount(0);
});
