/**
 * The signing page by keyboard, and long one-word titles at 390 px (the newcomer audit of stop 49), on the
 * signing specs' "Service agreement" template (e2e/support/service-agreement.ts):
 * - closing a signing dialog (Escape, Cancel, "Use this signature") returns the focus to the field that opened
 *   it, and the decline dialog to its button;
 * - a long one-word title wraps instead of widening the page: the consent card, the package page, its invitation
 *   in the Mail page, and a template of that name.
 */
import { expect, test, type APIRequestContext } from "@playwright/test";
import { appRequest } from "../support/app-request";
import { signInAsOwner } from "../support/owner";
import { failOnPageErrors } from "../support/page-errors";
import { screenshot, screenshotBoth } from "../support/screenshot";
import { setUpServiceAgreement, type TServiceAgreement } from "../support/service-agreement";
import { consent } from "../support/signing";

test.describe.configure({ mode: "serial" });

failOnPageErrors();

let sa: TServiceAgreement;
const api = (request: APIRequestContext) => sa.api(request);

test("set up: an API key, and the two-role Service agreement template", async ({ page, request }) => {
  sa = await setUpServiceAgreement(page, request, "Signing keyboard e2e");
});

test("keyboard: closing a signing dialog returns the focus to the field that opened it", async ({ page, request }) => {
  const pkg = await sa.sentPackage(request, "Service agreement — keyboard");
  await page.goto(await sa.signingUrl(request, pkg, 0));
  await consent(page);
  const signature = page.getByRole("button", { name: /^Signature \(required\): / });
  const address = page.getByLabel("Client address (required)");
  const dialog = page.getByRole("dialog", { name: "Add your signature" });

  await page.getByRole("button", { name: "Next field" }).press("Enter");
  await expect(signature).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(signature).toBeFocused();

  await page.keyboard.press("Enter");
  await dialog.getByRole("button", { name: "Cancel" }).press("Enter");
  await expect(dialog).toBeHidden();
  await expect(signature).toBeFocused();

  await page.keyboard.press("Enter");
  await dialog.getByRole("button", { name: "Type" }).press("Enter");
  await dialog.getByLabel("Type your signature").press("ControlOrMeta+a");
  await page.keyboard.type("Clara Client");
  await dialog.getByRole("button", { name: "Use this signature" }).press("Enter");
  await expect(dialog).toBeHidden();
  await expect(signature).toHaveAccessibleName(/signed, press to change/);
  await expect(signature).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(address).toBeFocused();

  const decline = page.getByRole("button", { name: "Decline" });
  await decline.press("Enter");
  const declineDialog = page.getByRole("dialog", { name: "Decline to sign" });
  await expect(declineDialog.getByLabel("Reason")).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(declineDialog).toBeHidden();
  await expect(decline).toBeFocused();
});

/**
 * A long one-word title (or template name) wraps instead of widening the page at 390 px (newcomer audit #6: the
 * consent card and the message page were over 1000 px wide). screenshotBoth fails when
 * document.documentElement.scrollWidth > 390; the package page and the template page are checked alike.
 */
test("a long one-word title wraps at 390 px: the consent card, the package page, its invitation, the template page", async ({ page, request }) => {
  const word = `${"Rahmenvertragsverlängerungsvereinbarung".repeat(3)}Anhang`;
  const pkg = await sa.sentPackage(request, word);
  await page.goto(await sa.signingUrl(request, pkg, 0));
  await expect(page.getByRole("heading", { name: "Before you sign" })).toBeVisible();
  await screenshotBoth(page, "signing-consent-long-title");

  await signInAsOwner(page);
  await page.goto(`/packages/${pkg.id}`);
  await expect(page.getByRole("heading", { level: 1, name: word })).toBeVisible();
  await screenshotBoth(page, "package-long-title");

  // The invitation names the package in its subject (queued with the send; polled, not assumed).
  let messageId = "";
  await expect
    .poll(async () => {
      const res = await appRequest(page).get("/api/app/mail?pageSize=100");
      const { messages } = ((await res.json()) as { data: { messages: { id: string; subject: string }[] } }).data;
      messageId = messages.find((m) => m.subject.includes(word))?.id ?? "";
      return messageId;
    })
    .not.toBe("");
  await page.goto(`/mail/${messageId}`);
  await expect(page.getByRole("heading", { name: new RegExp(word) })).toBeVisible();
  // The preview is the mail's own HTML in a sandboxed frame: it is waited for, and it wraps the long word at 390 px
  // as the page does (server/domain/mail/templates/mail-layout.test.ts checks the HTML alone).
  const preview = page.locator("iframe[title^='Preview of']").contentFrame();
  await expect(preview.getByRole("link", { name: "Review and sign" })).toBeVisible();
  await screenshot(page, "mail-message-long-title");
  await page.setViewportSize({ width: 390, height: 844 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expect.poll(() => preview.locator("html").evaluate((html) => html.scrollWidth - html.clientWidth)).toBeLessThanOrEqual(0);
  await screenshot(page, "mail-message-long-title-390");
  await page.setViewportSize({ width: 1280, height: 800 });

  const template = await api(request).post<{ id: string }>("/templates", { name: word });
  await page.goto(`/templates/${template.id}`);
  await expect(page.getByRole("heading", { level: 1, name: word })).toBeVisible();
  await screenshotBoth(page, "template-long-name");
});
