/**
 * Settings → API keys end to end: the owner creates a key and sees its value once (copied through the
 * clipboard), after a reload only the prefix remains, the key works against /api/v1/account, an expiry date
 * ends with the day in the browser's time zone, revoking it
 * (after a confirmation) makes the very next call 401, a name an active key has (in any case) is refused in the
 * dialog and free again once that key is revoked, and the 51st unrevoked key is refused with a clear message
 * inside the dialog.
 */
import { expect, test, type Page } from "@playwright/test";
import { appRequest } from "../support/app-request";
import { OWNER, signInAsOwner } from "../support/owner";
import { screenshot, screenshotBoth } from "../support/screenshot";

test.describe.configure({ mode: "serial" });
test.use({ permissions: ["clipboard-read", "clipboard-write"] });

async function openCreateDialog(page: Page) {
  await page.getByRole("button", { name: "Create key" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Create API key" });
  await expect(dialog).toBeVisible();
  return dialog;
}

test("create a key, see it once, use it, revoke it", async ({ page, request }) => {
  await signInAsOwner(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "API keys" }).click();
  await expect(page.getByRole("heading", { name: "API keys", level: 1 })).toBeVisible();
  await expect(page.getByText("No API keys yet")).toBeVisible();
  await screenshot(page, "api-keys-empty");

  const dialog = await openCreateDialog(page);
  // Only roles with API access are offered: the built-in Admin, not Sender or Viewer.
  const roleOptions = await dialog.getByLabel("Role").locator("option").allTextContents();
  expect(roleOptions).toContain("Admin");
  expect(roleOptions).not.toContain("Sender");
  expect(roleOptions).not.toContain("Viewer");
  await dialog.getByLabel("Name").fill("CRM integration");
  await expect(dialog.getByLabel("Workspace")).toHaveValue(/.+/);
  await screenshot(page, "api-keys-create-dialog");
  await dialog.getByRole("button", { name: "Create key" }).click();

  const shown = page.getByRole("dialog", { name: "Your new API key" });
  await expect(shown).toBeVisible();
  await expect(shown.getByText("it will not be shown again")).toBeVisible();
  const value = await shown.getByTestId("new-api-key-value").inputValue();
  expect(value).toMatch(/^fsk_[A-Za-z0-9_-]{43,}$/);
  await shown.getByRole("button", { name: "Copy", exact: true }).click();
  await expect(shown.getByRole("button", { name: "Copied", exact: true })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(value);
  await screenshot(page, "api-keys-created-once");
  // Escape does not dismiss it by accident.
  await page.keyboard.press("Escape");
  await expect(shown).toBeVisible();
  await shown.getByRole("button", { name: "I have copied the key" }).click();
  await expect(shown).toBeHidden();

  await page.reload();
  const row = page.getByTestId("api-key-row").filter({ hasText: "CRM integration" });
  await expect(row).toBeVisible();
  await expect(row).toContainText(`${value.slice(0, 10)}…`);
  await expect(row).toContainText("Admin");
  await expect(row).toContainText(OWNER.name);
  await expect(row).toContainText("Active");
  await expect(row).toContainText("Never used");
  expect(await page.content()).not.toContain(value);

  const ok = await request.get("/api/v1/account", { headers: { authorization: `Bearer ${value}` } });
  expect(ok.status()).toBe(200);
  const account = (await ok.json()) as { data: { issuedBy: { email: string }; apiKey: { name: string } } };
  expect(account.data.issuedBy.email).toBe(OWNER.email);
  expect(account.data.apiKey.name).toBe("CRM integration");

  await page.reload();
  await expect(row).toContainText("Last used");

  // An expiry date ends with the day in the browser's zone (the IANA zone is sent with it).
  const expiring = await openCreateDialog(page);
  await expect(expiring.getByText("Europe/Paris time")).toBeVisible();
  await expiring.getByLabel("Name").fill("Nightly export");
  await expiring.getByLabel("Expires on").fill("2030-12-31");
  await expiring.getByRole("button", { name: "Create key" }).click();
  await page.getByRole("dialog", { name: "Your new API key" }).getByRole("button", { name: "I have copied the key" }).click();
  const expiringRow = page.getByTestId("api-key-row").filter({ hasText: "Nightly export" });
  await expect(expiringRow).toContainText("expires 1 Jan 2031, 00:00");
  await screenshot(page, "api-keys-list");

  await row.getByRole("button", { name: /Revoke/ }).click();
  const confirm = page.getByRole("dialog", { name: "Revoke “CRM integration”?" });
  await expect(confirm).toBeVisible();
  await expect(confirm.getByRole("button", { name: "Cancel" })).toBeFocused();
  await screenshot(page, "api-keys-revoke-confirm");
  await confirm.getByRole("button", { name: "Revoke key" }).click();
  await expect(confirm).toBeHidden();
  await expect(row).toContainText("Revoked on");
  await expect(row.getByRole("button", { name: /Revoke/ })).toHaveCount(0);
  await screenshot(page, "api-keys-revoked");

  const refused = await request.get("/api/v1/account", { headers: { authorization: `Bearer ${value}` } });
  expect(refused.status()).toBe(401);
  expect(await refused.json()).toEqual({ error: "Unauthorized" });
});

test("a name an active key has, in any case, is refused in the dialog; revoking that key frees it", async ({ page }) => {
  await signInAsOwner(page);
  const roles = (await (await page.request.get("/api/app/roles")).json()) as { data: { id: string; name: string }[] };
  const workspaces = (await (await page.request.get("/api/app/workspaces")).json()) as { data: { id: string; isDefault: boolean }[] };
  const data = { name: "Production", roleId: roles.data.find((r) => r.name === "Admin")!.id, workspaceId: workspaces.data.find((w) => w.isDefault)!.id };
  const first = await appRequest(page).post("/api/app/api-keys", { data });
  expect(first.status()).toBe(201);
  const same = await appRequest(page).post("/api/app/api-keys", { data: { ...data, name: "PRODUCTION" } });
  expect([same.status(), await same.json()]).toEqual([
    409,
    { error: 'An active API key named "PRODUCTION" already exists (names are compared regardless of case): choose another name, or revoke that key first' },
  ]);

  await page.goto("/settings/api-keys");
  const dialog = await openCreateDialog(page);
  await dialog.getByLabel("Name").fill("production");
  await dialog.getByRole("button", { name: "Create key" }).click();
  const alert = dialog.getByRole("alert");
  await expect(alert).toContainText("Could not create the key");
  await expect(alert).toContainText('An active API key named "production" already exists');
  await screenshotBoth(page, "api-keys-name-taken-409");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  const listed = (await (await page.request.get("/api/app/api-keys")).json()) as { data: { name: string; status: string }[] };
  expect(listed.data.filter((k) => k.name.toLowerCase() === "production").map((k) => [k.name, k.status])).toEqual([["Production", "ACTIVE"]]);

  const { id } = ((await first.json()) as { data: { id: string } }).data;
  expect((await appRequest(page).post(`/api/app/api-keys/${id}/revoke`)).status()).toBe(200);
  expect((await appRequest(page).post("/api/app/api-keys", { data: { ...data, name: "production" } })).status()).toBe(201);
});

test("the 51st unrevoked key is refused with the reason in the dialog", async ({ page }) => {
  await signInAsOwner(page);
  const roles = (await (await page.request.get("/api/app/roles")).json()) as { data: { id: string; name: string }[] };
  const workspaces = (await (await page.request.get("/api/app/workspaces")).json()) as { data: { id: string; isDefault: boolean }[] };
  const roleId = roles.data.find((r) => r.name === "Admin")!.id;
  const workspaceId = workspaces.data.find((w) => w.isDefault)!.id;
  const list = (await (await page.request.get("/api/app/api-keys")).json()) as { data: { status: string }[] };
  const unrevoked = list.data.filter((k) => k.status !== "REVOKED").length;
  for (let i = unrevoked; i < 50; i++) {
    const res = await appRequest(page).post("/api/app/api-keys", { data: { name: `Bulk ${i + 1}`, roleId, workspaceId } });
    expect(res.status()).toBe(201);
  }

  await page.goto("/settings/api-keys");
  const dialog = await openCreateDialog(page);
  await dialog.getByLabel("Name").fill("One too many");
  await dialog.getByRole("button", { name: "Create key" }).click();
  const alert = dialog.getByRole("alert");
  await expect(alert).toContainText("Could not create the key");
  await expect(alert).toContainText("50 API keys that are not revoked");
  await expect(dialog).toBeVisible();
  await screenshot(page, "api-keys-limit-409");
});
