/**
 * "Forgot your password?" by mail (docs/decisions/passwords.md), on a server of this spec's own with a real SMTP
 * server on loopback: the member asks on the sign-in page, gets the same answer as for any address, follows the
 * link in the mail they receive and signs in with the new password; the old one no longer works. At 1280 and
 * 390 px, axe-clean.
 */
import { expect, test } from "@playwright/test";
import { receivedMail, startAppWithSmtp, type TAppWithSmtp } from "../support/app-with-smtp";
import { expectAxeClean } from "../support/axe";
import { signIn, signInAsOwner, signOut } from "../support/owner";
import { failOnPageErrors } from "../support/page-errors";
import { screenshotBoth } from "../support/screenshot";

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
