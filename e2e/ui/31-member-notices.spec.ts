/**
 * The server's settings are the owner's business: with no time-stamping authority and no mail server (this e2e
 * server has neither), the owner is told which setting to change (TSA_URLS, SMTP_URL), a member what it means
 * and to ask the owner — never the server's settings. At 1280 and 390 px, axe-clean.
 */
import { expect, test } from "@playwright/test";
import { appRequest } from "../support/app-request";
import { expectAxeClean } from "../support/axe";
import { signIn, signInAsOwner, signOut } from "../support/owner";
import { failOnPageErrors } from "../support/page-errors";
import { screenshotBoth } from "../support/screenshot";

test.describe.configure({ mode: "serial" });

failOnPageErrors();

const MEMBER = { email: "sam.sender@acme.test", name: "Sam Sender", password: "sender-password-1" };
const TSA_TITLE = "No time-stamping authority: seals carry this server's clock only";

test("the owner is told which settings to change", async ({ page }) => {
  await signInAsOwner(page);
  await page.goto("/");
  await expect(page.getByRole("status").filter({ hasText: TSA_TITLE })).toContainText("Set TSA_URLS to one or more RFC 3161 time-stamping authorities");
  await page.goto("/mail");
  await expect(page.getByRole("status").filter({ hasText: "No mail server is configured" })).toContainText("Set SMTP_URL to send mail.");

  const roles = (await (await page.request.get("/api/app/roles")).json()) as { data: { id: string; name: string }[] };
  const created = await appRequest(page).post("/api/app/members", {
    data: { method: "password", email: MEMBER.email, name: MEMBER.name, roleId: roles.data.find((r) => r.name === "Sender")!.id, password: MEMBER.password },
  });
  expect([201, 409]).toContain(created.status());
  await signOut(page);
});

test("a member is told what it means and whom to ask, without the server's settings", async ({ page }) => {
  await signIn(page, MEMBER.email, MEMBER.password);
  await page.goto("/");
  const tsa = page.getByRole("status").filter({ hasText: TSA_TITLE });
  await expect(tsa).toContainText(
    "Signed PDFs are sealed without an independent time: nothing but this server proves when they were signed. Your organisation’s owner can add a time-stamping authority.",
  );
  await expect(tsa).not.toContainText("TSA_URLS");
  await expectAxeClean(page, "overview (member)");
  await screenshotBoth(page, "overview-member-no-tsa");

  await page.goto("/mail");
  const outbox = page.getByRole("status").filter({ hasText: "No mail server is configured" });
  await expect(outbox).toContainText("Your organisation’s owner can set up a mail server.");
  await expect(outbox).not.toContainText("SMTP_URL");
  await expectAxeClean(page, "mail (member)");
  await screenshotBoth(page, "mail-member-outbox");
});
