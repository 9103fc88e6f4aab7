import { expect, type Page } from "@playwright/test";

/** The first owner every ui test signs in as (created by the setup test, or here when a file runs alone). */
export const OWNER = {
  organisationName: "Acme Legal",
  name: "Olivia Owner",
  email: "olivia@acme.test",
  password: "owner-password-1",
};

export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto("/signin");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
}

/** Signs in as the owner, running first-run setup if this server has no user yet. */
export async function signInAsOwner(page: Page): Promise<void> {
  await page.goto("/setup");
  if (await page.getByRole("heading", { name: "Set up Foliosign" }).isVisible()) {
    await page.getByLabel("Organisation name").fill(OWNER.organisationName);
    await page.getByLabel("Your name").fill(OWNER.name);
    await page.getByLabel("Email").fill(OWNER.email);
    await page.getByLabel("Password").fill(OWNER.password);
    await page.getByRole("button", { name: "Create organisation and sign in" }).click();
    await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
    return;
  }
  await signIn(page, OWNER.email, OWNER.password);
}

export async function signOut(page: Page): Promise<void> {
  await page.goto("/signout");
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/signin$/);
}
