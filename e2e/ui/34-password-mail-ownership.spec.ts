/**
 * "Forgot your password?" by mail (docs/decisions/passwords.md), on a server of this spec's own with a real SMTP
 * server on loopback: the member asks on the sign-in page, gets the same answer as for any address, follows the
 * link in the mail they receive and signs in with the new password; the old one no longer works. Then, on this
 * server only (the shared one keeps its owner for the other specs), the owner hands the organisation to that member
 * with their password (a wrong one refused in the dialog) and becomes an Admin member. At 1280 and 390 px, axe-clean.
 */
import { expect, test } from "@playwright/test";
import { receivedMail, startAppWithSmtp, type TAppWithSmtp } from "../support/app-with-smtp";
import { expectAxeClean } from "../support/axe";
import { OWNER, signIn, signInAsOwner, signOut } from "../support/owner";
import { failOnPageErrors } from "../support/page-errors";
import { screenshot, screenshotBoth } from "../support/screenshot";

test.describe.configure({ mode: "serial" });

// Beside the shared webServer's port: a server of this spec's own, with SMTP.
const PORT = Number(process.env.E2E_PORT ?? 3100) + 80;
const BASE_URL = `http://127.0.0.1:${PORT}`;
test.use({ baseURL: BASE_URL });

const MEL = { email: "mel.mail@example.com", name: "Mel Mail", password: "mel-first-password", next: "mel-second-password" };

let app: TAppWithSmtp;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  app = await startAppWithSmtp(PORT);
});
test.afterAll(async () => {
  await app?.stop();
});

failOnPageErrors();

test("a member asks for a link by mail and chooses a new password with it", async ({ page }) => {
  await signInAsOwner(page);
  const roles = (await (await page.request.get("/api/app/roles")).json()) as { data: { id: string; name: string }[] };
  const created = await page.request.post("/api/app/members", {
    headers: { origin: BASE_URL },
    data: { method: "password", email: MEL.email, name: MEL.name, roleId: roles.data.find((r) => r.name === "Sender")!.id, password: MEL.password },
  });
  expect(created.status()).toBe(201);
  await signOut(page);

  await page.getByRole("link", { name: "Forgot your password?" }).click();
  await expect(page.getByRole("heading", { name: "Forgot your password?" })).toBeVisible();
  await page.getByLabel("Email").fill(MEL.email);
  await expectAxeClean(page, "forgot password, the form");
  await screenshotBoth(page, "forgot-password-form");
  await page.getByRole("button", { name: "Email me a reset link" }).click();
  await expect(page.getByRole("status")).toContainText(`If ${MEL.email} belongs to a member, a link to choose a new password is on its way.`);
  await expectAxeClean(page, "forgot password, asked");
  await screenshotBoth(page, "forgot-password-asked");

  const mail = await receivedMail(app.sink, MEL.email, /^Set a new Foliosign password$/);
  const link = mail.text.match(/http:\/\/127\.0\.0\.1:\d+\/invite\/[A-Za-z0-9_-]+/)?.[0];
  expect(link, mail.text).toBeTruthy();
  await page.goto(link!);
  await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
  await page.getByLabel("New password").fill(MEL.next);
  await page.getByLabel("Repeat the password").fill(MEL.next);
  await page.getByRole("button", { name: "Set the new password and sign in" }).click();
  await expect(page.getByTestId("user-name")).toHaveText(MEL.name);

  await signOut(page);
  await page.getByLabel("Email").fill(MEL.email);
  await page.getByLabel("Password").fill(MEL.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert")).toBeVisible();
  await signIn(page, MEL.email, MEL.next);
});

test("the owner hands the organisation to a member, confirming with their password", async ({ page }) => {
  await signIn(page, OWNER.email, OWNER.password);
  await page.goto("/settings/members");
  await page.getByRole("button", { name: `Make owner ${MEL.name}` }).click();
  const dialog = page.getByRole("dialog", { name: `Make ${MEL.name} the owner?` });
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await dialog.getByLabel("Your password").fill("not the owner's password");
  await dialog.getByRole("button", { name: "Make owner" }).click();
  await expect(dialog.getByLabel("Your password")).toHaveAccessibleDescription("This is not your current password");
  await expectAxeClean(page, "the ownership dialog, a wrong password");
  await screenshot(page, "members-make-owner-wrong-password");
  await dialog.getByLabel("Your password").fill(OWNER.password);
  await dialog.getByLabel("Your password").press("Enter");
  await expect(dialog).toHaveCount(0);

  // Now an Admin member: no owner's actions, no API keys in the navigation; Mel is the owner.
  await expect(page.getByRole("button", { name: "Add member" })).toHaveCount(0);
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "API keys" })).toHaveCount(0);
  const melRow = page.getByRole("row").filter({ hasText: MEL.email });
  await expect(melRow).toContainText("Owner");
  await screenshotBoth(page, "members-after-handing-over");
  await signOut(page);
  await signIn(page, MEL.email, MEL.next);
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "API keys" })).toBeVisible();
});
