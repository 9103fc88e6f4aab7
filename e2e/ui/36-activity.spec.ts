/**
 * Settings → Activity (owner only): the organisation's administrative changes, newest first, one sentence each
 * with who made it, and narrowed by area. At 1280 and 390 px, axe-clean.
 */
import { expect, test } from "@playwright/test";
import { appRequest } from "../support/app-request";
import { expectAxeClean } from "../support/axe";
import { signInAsOwner } from "../support/owner";
import { failOnPageErrors } from "../support/page-errors";
import { screenshotBoth } from "../support/screenshot";

failOnPageErrors();

test("the owner reads who changed what, newest first, and narrows it to one area", async ({ page }) => {
  await signInAsOwner(page);
  const app = appRequest(page);
  const created = await app.post("/api/app/workspaces", { data: { name: "Activity sandbox", slug: "activity-sandbox", test: true } });
  expect(created.status()).toBe(201);
  // The allowlist is set and lifted again, so later specs' API calls are not refused.
  expect((await app.put("/api/app/ip-allowlist", { data: { entries: ["198.51.100.0/24"] } })).status()).toBe(200);
  expect((await app.put("/api/app/ip-allowlist", { data: { entries: [] } })).status()).toBe(200);

  await page.goto("/settings/activity");
  await expect(page.getByRole("heading", { name: "Activity", level: 1 })).toBeVisible();
  const rows = page.getByTestId("activity-row");
  await expect(rows.nth(0)).toContainText("Removed the API’s IP allowlist: keys work from any address");
  await expect(rows.nth(1)).toContainText("Set the API’s IP allowlist to 198.51.100.0/24");
  // From: the address the owner's browser asked from.
  await expect(rows.nth(1).getByRole("cell").nth(3)).toHaveText("127.0.0.1");
  await expect(rows.nth(2)).toContainText("Created the workspace “Activity sandbox”");
  // Where: the workspace the change was made in (a column at this width).
  await expect(rows.nth(2).getByRole("cell").nth(2)).toHaveText("Activity sandbox");
  await expectAxeClean(page, "the activity page");
  await screenshotBoth(page, "activity");

  await page.getByLabel("Show").selectOption("workspaces");
  await expect(rows.first()).toContainText("Created the workspace “Activity sandbox”");
  await expect(rows.filter({ hasText: "IP allowlist" })).toHaveCount(0);
});
