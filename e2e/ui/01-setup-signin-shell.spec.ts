/**
 * First run end to end in a real browser against the built app: /setup creates the owner and organisation
 * and signs in, the navigation shell shows the user and organisation, sign-out asks first, bad credentials
 * get a clear message, and /setup is closed for good afterwards. Repeated failures for one email are
 * throttled with the wait in minutes (the limits themselves are tested in vitest on an injected clock).
 */
import { expect, test } from "@playwright/test";
import { appRequest } from "../support/app-request";
import { OWNER, signIn } from "../support/owner";
import { screenshot } from "../support/screenshot";

test.describe.configure({ mode: "serial" });

test("a fresh instance sends visitors to /setup and validates the form", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/setup$/);
  await expect(page.getByRole("heading", { name: "Set up Foliosign" })).toBeVisible();
  await screenshot(page, "setup");

  await page.getByLabel("Organisation name").fill(OWNER.organisationName);
  await page.getByLabel("Your name").fill(OWNER.name);
  await page.getByLabel("Email").fill("not-an-email");
  await page.getByLabel("Password").fill("short");
  await page.getByRole("button", { name: "Create organisation and sign in" }).click();
  await expect(page.getByText("Enter a valid email address")).toBeVisible();
  await expect(page.getByText("Use at least 10 characters")).toBeVisible();
  await expect(page.getByLabel("Password")).toHaveAttribute("aria-invalid", "true");
  await screenshot(page, "setup-errors");

  // Too long: the inputs stop at 200 characters, and the server's answer is a sentence, not zod's
  // "Too big: expected string to have <=200 characters" (newcomer audit #13).
  for (const label of ["Organisation name", "Your name", "Password"]) await expect(page.getByLabel(label)).toHaveAttribute("maxlength", "200");
  const tooLong = await appRequest(page).post("/api/app/setup", {
    data: { organisationName: "O".repeat(250), name: "N".repeat(250), email: "owner@example.test", password: "p".repeat(250) },
  });
  expect(tooLong.status()).toBe(422);
  expect(((await tooLong.json()) as { details: Record<string, string[]> }).details).toEqual({
    organisationName: ["Use at most 200 characters"],
    name: ["Use at most 200 characters"],
    password: ["Use at most 200 characters"],
  });
});

test("setup creates the owner, signs in and shows the shell", async ({ page }) => {
  await page.goto("/setup");
  await page.getByLabel("Organisation name").fill(OWNER.organisationName);
  await page.getByLabel("Your name").fill(OWNER.name);
  await page.getByLabel("Email").fill(OWNER.email);
  await page.getByLabel("Password").fill(OWNER.password);
  await page.getByRole("button", { name: "Create organisation and sign in" }).click();

  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  for (const label of ["Overview", "Packages", "Templates", "Webhooks", "API keys", "Members", "Roles", "Workspaces", "Plan", "Security"]) {
    await expect(nav.getByRole("link", { name: label, exact: true })).toBeVisible();
  }
  await expect(page.getByTestId("organisation-name")).toHaveText(OWNER.organisationName);
  await expect(page.getByTestId("user-name")).toHaveText(OWNER.name);
  await expect(page.getByRole("heading", { name: "Welcome, Olivia" })).toBeVisible();
  await screenshot(page, "overview");

  await nav.getByRole("link", { name: "Packages" }).click();
  await expect(page.getByRole("heading", { name: "Packages", level: 1 })).toBeVisible();
  await expect(page.getByText("No packages yet")).toBeVisible();
  await expect(nav.getByRole("link", { name: "Packages" })).toHaveAttribute("aria-current", "page");
  await screenshot(page, "packages-first-run");
  await nav.getByRole("link", { name: "Templates", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Templates", level: 1 })).toBeVisible();
  await expect(page.getByText("No templates yet")).toBeVisible();
  await screenshot(page, "templates-placeholder");
  // Webhooks is a real page now: a fresh workspace shows its empty state, which explains webhooks.
  await nav.getByRole("link", { name: "Webhooks", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Webhooks", level: 1 })).toBeVisible();
  await expect(page.getByText("No webhook endpoints yet")).toBeVisible();

  await page.getByRole("link", { name: "Sign out" }).click();
  await expect(page.getByRole("heading", { name: "Sign out?" })).toBeVisible();
  await screenshot(page, "signout");
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/signin$/);

  await page.goto("/");
  await expect(page).toHaveURL(/\/signin$/);
});

test("sign-in explains bad credentials, then signs in; setup is closed", async ({ page }) => {
  await page.goto("/signin");
  await expect(page.getByRole("heading", { name: "Sign in to Foliosign" })).toBeVisible();
  await screenshot(page, "signin");
  await page.getByLabel("Email").fill(OWNER.email);
  await page.getByLabel("Password").fill("wrong-password-1");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Email or password is incorrect." })).toBeVisible();
  await screenshot(page, "signin-error");

  await signIn(page, OWNER.email, OWNER.password);
  await expect(page.getByTestId("user-name")).toHaveText(OWNER.name);

  await page.goto("/setup");
  await expect(page.getByRole("heading", { name: "Setup is closed" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Go to sign in" })).toBeVisible();
  await screenshot(page, "setup-closed");
});

test("after 10 failed attempts for an email, sign-in says to wait", async ({ page }) => {
  // An email nobody uses, so the throttle cannot lock out the accounts the other tests sign in with. The
  // eleven attempts also count against 127.0.0.1, whose limit (30) is well above what the suite spends.
  const email = "guesser@acme.test";
  await page.goto("/signin");
  await page.getByLabel("Email").fill(email);
  for (let i = 1; i <= 10; i++) {
    await page.getByLabel("Password").fill(`guess-number-${i}`);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Email or password is incorrect." })).toBeVisible();
  }
  await page.getByLabel("Password").fill("guess-number-11");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Too many attempts, try again in 15 minutes." })).toBeVisible();
  await screenshot(page, "signin-throttled");
  // Another account is not affected.
  await signIn(page, OWNER.email, OWNER.password);
});
