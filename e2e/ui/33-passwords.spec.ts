/**
 * Passwords after first run (docs/decisions/passwords.md): the owner makes a member a one-time reset link from
 * Members (confirmed first, shown once); the member's session from before ends once the link is used, the old
 * password stops working and the new one signs in. A member changes their own password on Your account: a wrong
 * current one is refused at its field, the right one keeps this browser signed in. The sign-in page says what to
 * do about a forgotten password when this server sends no mail (34 covers the link by mail). At 1280 and 390 px,
 * axe-clean.
 */
import { expect, test } from "@playwright/test";
import { appRequest } from "../support/app-request";
import { expectAxeClean } from "../support/axe";
import { signIn, signInAsOwner, signOut } from "../support/owner";
import { failOnPageErrors } from "../support/page-errors";
import { screenshot, screenshotBoth } from "../support/screenshot";

test.describe.configure({ mode: "serial" });

failOnPageErrors();

const PAT = {
  email: "pat.passwords@acme.test",
  name: "Pat Passwords",
  first: "pat-first-password",
  second: "pat-second-password",
  third: "pat-third-password",
};

test("the owner makes a member a reset link; using it ends the member's sessions", async ({ page, browser }) => {
  await signInAsOwner(page);
  const roles = (await (await page.request.get("/api/app/roles")).json()) as { data: { id: string; name: string }[] };
  const created = await appRequest(page).post("/api/app/members", {
    data: { method: "password", email: PAT.email, name: PAT.name, roleId: roles.data.find((r) => r.name === "Sender")!.id, password: PAT.first },
  });
  expect(created.status()).toBe(201);

  // The member is signed in elsewhere with the password they have now.
  const elsewhere = await browser.newContext();
  const theirPage = await elsewhere.newPage();
  await signIn(theirPage, PAT.email, PAT.first);

  await page.goto("/settings/members");
  await page.getByRole("button", { name: `Reset password of ${PAT.name}` }).click();
  const confirm = page.getByRole("dialog", { name: `Reset the password of ${PAT.name}?` });
  await expect(confirm).toContainText("It works once, for 24 hours");
  await expect(confirm.getByRole("button", { name: "Cancel" })).toBeFocused();
  await screenshot(page, "members-reset-confirm");
  await confirm.getByRole("button", { name: "Make a reset link" }).click();
  const shown = page.getByRole("dialog", { name: "Send this password reset link" });
  await expect(shown).toContainText("Their current password keeps working until the link is used.");
  const link = await shown.getByTestId("invite-link").inputValue();
  expect(link).toMatch(/\/invite\/[A-Za-z0-9_-]{40,}$/);
  await expectAxeClean(page, "the reset link dialog");
  await screenshotBoth(page, "members-reset-link-once");
  await shown.getByRole("button", { name: "Done" }).click();
  await expect(page.getByRole("row").filter({ hasText: PAT.email })).toContainText("Reset link until");

  // Until the link is used, the member's session and password still work.
  await theirPage.reload();
  await expect(theirPage.getByRole("navigation", { name: "Main" })).toBeVisible();

  const anonymous = await browser.newContext();
  const resetPage = await anonymous.newPage();
  await resetPage.goto(link);
  await expect(resetPage.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
  await expect(resetPage.getByLabel("Your name")).toHaveCount(0);
  await resetPage.getByLabel("New password").fill(PAT.second);
  await resetPage.getByLabel("Repeat the password").fill(PAT.second);
  await expectAxeClean(resetPage, "the reset page");
  await screenshotBoth(resetPage, "password-reset-page");
  await resetPage.getByRole("button", { name: "Set the new password and sign in" }).click();
  await expect(resetPage.getByTestId("user-name")).toHaveText(PAT.name);

  // The session from before the reset is over; the link is used up.
  await theirPage.goto("/packages");
  await expect(theirPage).toHaveURL(/\/signin/);
  await resetPage.goto(link);
  await expect(resetPage.getByRole("heading", { name: "This link cannot be used" })).toBeVisible();
  await elsewhere.close();
  await anonymous.close();
});

test("a member changes their own password on Your account", async ({ page }) => {
  await page.goto("/signin");
  await page.getByLabel("Email").fill(PAT.email);
  await page.getByLabel("Password").fill(PAT.first);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert")).toBeVisible(); // the old password no longer signs in
  await signIn(page, PAT.email, PAT.second);

  await page.getByRole("link", { name: "Your account" }).click();
  await expect(page.getByRole("heading", { name: "Your account", level: 1 })).toBeVisible();
  await expect(page.getByRole("main").getByText(PAT.email)).toBeVisible();
  await page.getByLabel("Current password").fill("not my password");
  await page.getByLabel("New password", { exact: true }).fill(PAT.third);
  await page.getByLabel("Repeat the new password").fill(PAT.third);
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByLabel("Current password")).toHaveAccessibleDescription("This is not your current password");
  await expectAxeClean(page, "Your account, a wrong current password");
  await screenshotBoth(page, "account-wrong-current-password");

  // By keyboard: back to the current password's field, the right one, Enter.
  await page.getByLabel("Current password").focus();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type(PAT.second);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status").filter({ hasText: "Your password was changed." })).toBeVisible();
  await expect(page.getByLabel("Current password")).toHaveValue("");
  await screenshotBoth(page, "account-password-changed");
  await page.reload();
  await expect(page.getByRole("heading", { name: "Your account", level: 1 })).toBeVisible(); // still signed in here
  // The member's own name: saved, and the shell shows it at once.
  await page.getByLabel("Your name").fill("Pat P. Passwords");
  await page.getByRole("button", { name: "Save name" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Your name was saved." })).toBeVisible();
  await expect(page.getByTestId("user-name")).toHaveText("Pat P. Passwords");
  await signOut(page);
  await signIn(page, PAT.email, PAT.third);
});

test("without a mail server, Forgot your password? says whom to ask", async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto("/signin");
  await page.getByRole("link", { name: "Forgot your password?" }).click();
  await expect(page.getByRole("heading", { name: "Forgot your password?" })).toBeVisible();
  await expect(page.getByText("Ask the owner of your organisation for a reset link")).toBeVisible();
  await expect(page.getByText("npm run admin -- reset-password --email you@example.com")).toBeVisible();
  await expect(page.getByRole("button", { name: "Email me a reset link" })).toHaveCount(0);
  await expectAxeClean(page, "forgot password without a mail server");
  await screenshotBoth(page, "forgot-password-no-mail");
  await context.close();
});
