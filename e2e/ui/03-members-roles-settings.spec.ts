/**
 * The owner's organisation settings end to end: members (initial password and one-time invite link, role
 * change, removal after confirmation), custom roles, workspaces, the read-only plan and the IP allowlist
 * validated as typed; a key whose role loses API access is flagged in the keys list; then an invited member
 * accepts the link, signs in, and cannot reach API keys, Security or (as a Viewer) Webhooks (no menu entry,
 * HTTP 403 with the 403 page, and 403 from the app API).
 */
import { expect, test } from "@playwright/test";
import { createApiKey } from "../support/api-key";
import { signIn, signInAsOwner, signOut } from "../support/owner";
import { screenshot, screenshotBoth } from "../support/screenshot";

test.describe.configure({ mode: "serial" });
test.use({ permissions: ["clipboard-read", "clipboard-write"] });

const SAM = { name: "Sam Sender", email: "sam@acme.test", password: "sam-password-1" };
const IVY = { name: "Ivy Invitee", email: "ivy@acme.test", password: "ivy-password-1" };
let inviteLink = "";

test("members: add with a password and with an invite link, change a role, remove", async ({ page }) => {
  await signInAsOwner(page);
  await page.goto("/settings/members");
  await expect(page.getByRole("heading", { name: "Members", level: 1 })).toBeVisible();
  await expect(page.getByText("Only you so far")).toBeVisible();
  await screenshot(page, "members-only-owner");

  await page.getByRole("button", { name: "Add member" }).first().click();
  let dialog = page.getByRole("dialog", { name: "Add member" });
  await dialog.getByLabel("Name").fill(SAM.name);
  await dialog.getByLabel("Email").fill(SAM.email);
  await dialog.getByLabel("Role").selectOption({ label: "Sender" });
  await dialog.getByRole("radio", { name: /Initial password/ }).check();
  await dialog.getByLabel("Initial password", { exact: true }).fill("short");
  await dialog.getByRole("button", { name: "Add member" }).click();
  await expect(dialog.getByText("Use at least 10 characters")).toBeVisible();
  await screenshot(page, "members-add-dialog-error");
  await dialog.getByLabel("Initial password", { exact: true }).fill(SAM.password);
  await dialog.getByRole("button", { name: "Add member" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("member-row").filter({ hasText: SAM.email })).toBeVisible();

  await page.getByRole("button", { name: "Add member" }).first().click();
  dialog = page.getByRole("dialog", { name: "Add member" });
  await dialog.getByLabel("Name").fill(IVY.name);
  await dialog.getByLabel("Email").fill(IVY.email);
  await dialog.getByLabel("Role").selectOption({ label: "Sender" });
  await dialog.getByRole("button", { name: "Add member" }).click();
  const shown = page.getByRole("dialog", { name: "Send this invite link" });
  await expect(shown).toBeVisible();
  inviteLink = await shown.getByTestId("invite-link").inputValue();
  expect(inviteLink).toMatch(/\/invite\/[A-Za-z0-9_-]{40,}$/);
  await screenshot(page, "members-invite-link-once");
  await shown.getByRole("button", { name: "Done" }).click();

  const ivyRow = page.getByTestId("member-row").filter({ hasText: IVY.email });
  await expect(ivyRow).toContainText("Invited");
  await ivyRow.getByLabel(`Role of ${IVY.name}`).selectOption({ label: "Viewer" });
  await expect(page.getByText(`${IVY.name}'s role was changed.`)).toBeVisible();
  await page.reload();
  await expect(ivyRow.getByLabel(`Role of ${IVY.name}`)).toHaveValue(/.+/);
  expect(await ivyRow.getByLabel(`Role of ${IVY.name}`).locator("option:checked").textContent()).toBe("Viewer");
  await screenshot(page, "members-list");

  const samRow = page.getByTestId("member-row").filter({ hasText: SAM.email });
  await samRow.getByRole("button", { name: /Remove/ }).click();
  const confirm = page.getByRole("dialog", { name: `Remove ${SAM.name}?` });
  await expect(confirm).toContainText("stops working at once");
  await screenshot(page, "members-remove-confirm");
  await confirm.getByRole("button", { name: "Remove member" }).click();
  await expect(samRow).toHaveCount(0);
});

test("a removed member cannot sign in", async ({ page }) => {
  await page.goto("/signin");
  await page.getByLabel("Email").fill(SAM.email);
  await page.getByLabel("Password").fill(SAM.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("Email or password is incorrect.")).toBeVisible();
});

test("roles: built-ins read-only, a custom role created, edited and deleted", async ({ page }) => {
  await signInAsOwner(page);
  await page.goto("/settings/roles");
  const admin = page.getByTestId("role-row").filter({ hasText: "Admin" });
  await expect(admin).toContainText("Built-in");
  await expect(admin).toContainText("Read-only");

  await page.getByRole("button", { name: "New role" }).click();
  let dialog = page.getByRole("dialog", { name: "New role" });
  await dialog.getByLabel("Name").fill("Integration");
  await dialog.getByLabel(/API access/).check();
  await dialog.getByLabel(/Send packages/).check();
  await dialog.getByLabel(/Create and edit/).check();
  await screenshot(page, "roles-new-dialog");
  await dialog.getByRole("button", { name: "Create role" }).click();
  await expect(dialog).toBeHidden();
  const integration = page.getByTestId("role-row").filter({ hasText: "Integration" });
  await expect(integration).toContainText("Create and edit");

  // A name that differs only by case is the same name (product audit item 1): refused with the reason.
  await page.getByRole("button", { name: "New role" }).click();
  dialog = page.getByRole("dialog", { name: "New role" });
  await expect(dialog.getByText("Unique in your organisation, whatever the case")).toBeVisible();
  await dialog.getByLabel("Name").fill("INTEGRATION");
  await dialog.getByRole("button", { name: "Create role" }).click();
  await expect(dialog.getByRole("alert")).toHaveText('A role named "INTEGRATION" already exists (names are compared regardless of case)');
  await screenshotBoth(page, "roles-name-taken-409");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByTestId("role-row").filter({ hasText: /integration/i })).toHaveCount(1);

  await page.getByRole("button", { name: "New role" }).click();
  dialog = page.getByRole("dialog", { name: "New role" });
  await dialog.getByLabel("Name").fill("Temporary");
  await dialog.getByRole("button", { name: "Create role" }).click();
  await expect(dialog).toBeHidden();
  const temporary = page.getByTestId("role-row").filter({ hasText: "Temporary" });
  await temporary.getByRole("button", { name: /Edit/ }).click();
  dialog = page.getByRole("dialog", { name: "Edit “Temporary”" });
  await dialog.getByLabel(/Manage webhooks/).check();
  await dialog.getByRole("button", { name: "Save role" }).click();
  await expect(dialog).toBeHidden();
  await screenshot(page, "roles-list");

  await temporary.getByRole("button", { name: /Delete/ }).click();
  const confirm = page.getByRole("dialog", { name: "Delete the role “Temporary”?" });
  await confirm.getByRole("button", { name: "Delete role" }).click();
  await expect(temporary).toHaveCount(0);
});

test("a key whose role loses API access stays Active but is flagged as not working", async ({ page }) => {
  await signInAsOwner(page);
  const key = await createApiKey(page, "Integration sync", "Integration");

  await page.goto("/settings/roles");
  await page.getByTestId("role-row").filter({ hasText: "Integration" }).getByRole("button", { name: /Edit/ }).click();
  let dialog = page.getByRole("dialog", { name: "Edit “Integration”" });
  await dialog.getByLabel(/API access/).uncheck();
  await dialog.getByRole("button", { name: "Save role" }).click();
  await expect(dialog).toBeHidden();
  expect((await page.request.get("/api/v1/account", { headers: { authorization: `Bearer ${key}` } })).status()).toBe(401);

  await page.goto("/settings/api-keys");
  const row = page.getByTestId("api-key-row").filter({ hasText: "Integration sync" });
  await expect(row).toContainText("Active");
  await expect(row).toContainText("Not working: role has no API access");
  await expect(row).toContainText("no longer has API access, so the API refuses it (401)");
  await row.scrollIntoViewIfNeeded();
  await screenshot(page, "api-keys-inoperative");

  // Giving the role API access back makes the key work, and the warning goes.
  await page.goto("/settings/roles");
  await page.getByTestId("role-row").filter({ hasText: "Integration" }).getByRole("button", { name: /Edit/ }).click();
  dialog = page.getByRole("dialog", { name: "Edit “Integration”" });
  await dialog.getByLabel(/API access/).check();
  await dialog.getByRole("button", { name: "Save role" }).click();
  await expect(dialog).toBeHidden();
  expect((await page.request.get("/api/v1/account", { headers: { authorization: `Bearer ${key}` } })).status()).toBe(200);
  await page.goto("/settings/api-keys");
  await expect(row).toContainText("Active");
  await expect(row).not.toContainText("Not working");
});

test("workspaces, plan and security", async ({ page }) => {
  await signInAsOwner(page);
  await page.goto("/settings/workspaces");
  await expect(page.getByTestId("workspace-row").filter({ hasText: "Default" })).toContainText("default");
  await page.getByRole("button", { name: "New workspace" }).click();
  let dialog = page.getByRole("dialog", { name: "New workspace" });
  await dialog.getByLabel("Name").fill("EMEA Sales");
  await expect(dialog.getByLabel("Slug")).toHaveValue("emea-sales");
  await dialog.getByRole("button", { name: "Create workspace" }).click();
  await expect(dialog).toBeHidden();
  // The sidebar's switcher lists it at once, without a reload (it was stale until one, newcomer audit #7).
  const switcherOption = (name: string) =>
    page
      .getByTestId("workspace-switcher")
      .locator("option")
      .filter({ hasText: new RegExp(`^${name}$`) });
  await expect(switcherOption("EMEA Sales")).toHaveCount(1);
  const emea = page.getByTestId("workspace-row").filter({ hasText: "EMEA Sales" });
  await emea.getByRole("button", { name: /Rename/ }).click();
  dialog = page.getByRole("dialog", { name: "Rename “EMEA Sales”" });
  await dialog.getByLabel("Name").fill("EMEA");
  await dialog.getByLabel("Slug").fill("Bad Slug");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog.getByText("Use lower-case letters")).toBeVisible();
  await dialog.getByLabel("Slug").fill("emea");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("workspace-row").filter({ hasText: "EMEA" })).toContainText("emea");
  await expect(switcherOption("EMEA")).toHaveCount(1);
  await expect(switcherOption("EMEA Sales")).toHaveCount(0);
  await screenshot(page, "workspaces");

  // Workspace names are unique regardless of case too (product audit item 1).
  await page.getByRole("button", { name: "New workspace" }).click();
  dialog = page.getByRole("dialog", { name: "New workspace" });
  await dialog.getByLabel("Name").fill("emea");
  await dialog.getByLabel("Slug").fill("emea-2");
  await dialog.getByRole("button", { name: "Create workspace" }).click();
  await expect(dialog.getByRole("alert")).toHaveText('A workspace named "emea" already exists (names are compared regardless of case)');
  await screenshotBoth(page, "workspaces-name-taken-409");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(switcherOption("emea")).toHaveCount(0);

  await page.goto("/settings/plan");
  await expect(page.getByText("Public API")).toBeVisible();
  await expect(page.getByText("npm run admin -- set-plan")).toBeVisible();
  await screenshot(page, "plan");

  await page.goto("/settings/security");
  await expect(page.getByText("No allowlist")).toBeVisible();
  await page.getByRole("button", { name: "Add address or range" }).click();
  const entry = page.getByLabel("Address or range 1");
  await entry.fill("10.0.0");
  await expect(page.getByText("Enter an IPv4 or IPv6 address, or a CIDR range")).toBeVisible();
  await expect(page.getByRole("button", { name: "Save allowlist" })).toBeDisabled();
  await screenshot(page, "security-invalid-entry");
  await entry.fill("203.0.113.0/24");
  await page.getByRole("button", { name: "Add address or range" }).click();
  await page.getByLabel("Address or range 2").fill("127.0.0.1");
  await page.getByRole("button", { name: "Save allowlist" }).click();
  await expect(page.getByText("Allowlist saved")).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Address or range 1")).toHaveValue("203.0.113.0/24");
  await screenshot(page, "security");
  // Lift the restriction again so other tests' API calls are not affected.
  await page.getByRole("button", { name: "Remove address 2" }).click();
  await page.getByRole("button", { name: "Remove address 1" }).click();
  await page.getByRole("button", { name: "Save allowlist" }).click();
  await expect(page.getByText("Allowlist saved")).toBeVisible();
});

test("an invited member accepts the link and cannot reach API keys or Security", async ({ page }) => {
  expect(inviteLink).not.toBe("");
  await page.goto(inviteLink);
  await expect(page.getByRole("heading", { name: "Join Foliosign" })).toBeVisible();
  await expect(page.getByLabel("Email")).toHaveValue(IVY.email);
  await page.getByLabel("Choose a password").fill(IVY.password);
  await page.getByLabel("Repeat the password").fill(IVY.password);
  await screenshot(page, "invite-accept");
  await page.getByRole("button", { name: "Set password and sign in" }).click();

  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav).toBeVisible();
  await expect(page.getByTestId("user-name")).toHaveText(IVY.name);
  await expect(nav.getByRole("link", { name: "Members" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "API keys" })).toHaveCount(0);

  await expect(nav.getByRole("link", { name: "Security" })).toHaveCount(0);

  // A real 403 (forbidden() before streaming), not a 200 carrying a 403 message; the shell stays around it.
  const keysPage = await page.goto("/settings/api-keys");
  expect(keysPage?.status()).toBe(403);
  await expect(page.getByText("403 · Forbidden")).toBeVisible();
  await expect(page.getByText("Only the organisation's owner can open this page.")).toBeVisible();
  await expect(nav).toBeVisible();
  await screenshot(page, "api-keys-forbidden-member");
  const api = await page.request.get("/api/app/api-keys");
  expect(api.status()).toBe(403);

  const securityPage = await page.goto("/settings/security");
  expect(securityPage?.status()).toBe(403);
  await expect(page.getByText("403 · Forbidden")).toBeVisible();
  await expect(page.getByRole("button", { name: "Save allowlist" })).toHaveCount(0);
  expect((await page.request.get("/api/app/ip-allowlist")).status()).toBe(403);
  // Webhooks refuse a role without canManageWebhooks (Ivy is a Viewer) the same way, with their own message.
  await expect(nav.getByRole("link", { name: "Webhooks" })).toHaveCount(0);
  const webhooksPage = await page.goto("/webhooks");
  expect(webhooksPage?.status()).toBe(403);
  await expect(page.getByText("Your role does not allow managing webhooks.")).toBeVisible();
  await screenshot(page, "webhooks-forbidden-member");
  // Pages members may read still answer 200.
  expect((await page.goto("/settings/roles"))?.status()).toBe(200);

  await page.goto("/settings/members");
  await expect(page.getByRole("button", { name: "Add member" })).toHaveCount(0);
  await screenshot(page, "members-as-viewer");
  await signOut(page);

  // The link worked once.
  await page.goto(inviteLink);
  await expect(page.getByRole("heading", { name: "This link cannot be used" })).toBeVisible();
  await screenshot(page, "invite-used");
  await signIn(page, IVY.email, IVY.password);
});
