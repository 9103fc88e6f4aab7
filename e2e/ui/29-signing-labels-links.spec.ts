/**
 * Two findings of the product audit on the recipient's side, against the built app.
 *
 * Labels: a template text field's label ("Tenant address") is shown on the signing page beside its input, is the
 * input's accessible name (a click on it focuses the input), and names the field in the list of missing fields; a
 * field without a label keeps its name by type ("Text"). A label at the top of a page goes below its box; a long
 * one wraps inside the page at 390 px. Filled in by keyboard alone; axe-core clean; screenshots at both sizes.
 *
 * Links: a signing URL that opens nothing — unknown, garbled, or replaced by a newer link — shows the same clear
 * page as before but answers HTTP 404 (it answered 200), still with no Referer and not indexed; a live link still
 * answers 200. The embedded signing page of an unknown link answers 404 too.
 */
import { expect, test, type APIRequestContext } from "@playwright/test";
import { createApiKey } from "../support/api-key";
import { expectAxeClean } from "../support/axe";
import { activeTemplate, keyApi, sentFromTemplate, signingPathFor } from "../support/key-api";
import { signInAsOwner } from "../support/owner";
import { titledPdf } from "../support/pdf";
import { failOnPageErrors } from "../support/page-errors";
import { screenshotBoth } from "../support/screenshot";
import { consent } from "../support/signing";

test.describe.configure({ mode: "serial" });

failOnPageErrors();

let key = "";
let templateId = "";

type TPackage = { id: string; recipientSessions: { id: string }[] };

const api = (request: APIRequestContext) => keyApi(request, key);
const LONG_LABEL = "Previous address of the tenant, with the postcode, the town and the country";

async function sentPackage(request: APIRequestContext, title: string): Promise<TPackage> {
  return sentFromTemplate<TPackage>(api(request), templateId, title, [{ email: "tina@example.com", name: "Tina Tenant", roleIndex: 0 }]);
}

test("set up: an ACTIVE lease template whose text fields have labels, one text field without", async ({ page, request }) => {
  await signInAsOwner(page);
  key = await createApiKey(page, "Labels e2e", "Admin");
  templateId = await activeTemplate(api(request), request, {
    name: "Lease",
    documentName: "lease.pdf",
    pdf: await titledPdf([["Lease — the tenant", "The tenant rents the flat on the terms below."], ["Lease — house rules"]]),
    roles: ["Tenant"],
    fields: [
      // At the very top of the page: its label goes below the box.
      { roleIndex: 0, type: "text", label: LONG_LABEL, required: false, page: 1, x: 56, y: 6, width: 160, height: 20 },
      { roleIndex: 0, type: "text", label: "Tenant address", page: 1, x: 56, y: 300, width: 260, height: 24 },
      { roleIndex: 0, type: "text", page: 1, x: 56, y: 380, width: 200, height: 24 },
      { roleIndex: 0, type: "checkbox", label: "I have read the house rules", page: 1, x: 56, y: 460, width: 18, height: 18 },
      { roleIndex: 0, type: "signature", page: 1, x: 56, y: 560, width: 200, height: 50 },
    ],
  });
});

test("a text field's label is shown, names its input and the missing-field list; fields without one keep their type's name", async ({ page, request }) => {
  const pkg = await sentPackage(request, "Lease — Tina");
  const link = await signingPathFor(api(request), pkg.id, pkg.recipientSessions[0]!.id);
  await page.goto(link);
  await consent(page);

  const address = page.getByRole("textbox", { name: "Tenant address (required)", exact: true });
  const unlabelled = page.getByRole("textbox", { name: "Text (required)", exact: true });
  const previous = page.getByRole("textbox", { name: LONG_LABEL, exact: true });
  const rules = page.getByRole("checkbox", { name: "I have read the house rules (required)", exact: true });
  await expect(address).toBeVisible();
  await expect(unlabelled).toBeVisible();
  await expect(previous).toBeVisible();
  await expect(rules).toBeVisible();
  await expect(page.getByRole("button", { name: /^Signature \(required\): press to sign$/ })).toBeVisible();

  // The label is on screen (a required one marked), above its box, and a click on it focuses the input.
  const caption = page.locator("label[data-field-label]", { hasText: "Tenant address" });
  await expect(caption).toBeVisible();
  await expect(caption).toHaveText("Tenant address (required) *");
  const captionBox = (await caption.boundingBox())!;
  const addressBox = (await address.boundingBox())!;
  expect(captionBox.y + captionBox.height).toBeLessThanOrEqual(addressBox.y);
  await caption.click();
  await expect(address).toBeFocused();
  // Only labelled fields have one: three labels for five fields (the unlabelled text field and the signature have none).
  await expect(page.locator("[data-field-label]")).toHaveCount(3);

  // At the top of the page the label sits below its box.
  const top = page.locator("label[data-field-label]", { hasText: "Previous address" });
  expect((await top.boundingBox())!.y).toBeGreaterThanOrEqual((await previous.boundingBox())!.y + (await previous.boundingBox())!.height);

  // Finishing early lists the missing fields by their labels, or their type.
  await page.getByRole("button", { name: "Finish" }).click();
  const missing = page.getByRole("alert").filter({ hasText: "required fields are still empty" });
  await expect(missing.getByRole("button", { name: "Tenant address (required) on page 1" })).toBeVisible();
  await expect(missing.getByRole("button", { name: "Text (required) on page 1" })).toBeVisible();
  await expect(missing.getByRole("button", { name: "I have read the house rules (required) on page 1" })).toBeVisible();
  await expectAxeClean(page, "signing page with labelled fields", "serious");
  await screenshotBoth(page, "signing-field-labels");

  // At 390 px the long label wraps inside the page, onto more than one line.
  await page.setViewportSize({ width: 390, height: 844 });
  const overlay = (await page.locator("[data-page-overlay='1']").boundingBox())!;
  await expect.poll(async () => (await top.boundingBox())!.height).toBeGreaterThan(20);
  const wrapped = (await top.boundingBox())!;
  expect(wrapped.x).toBeGreaterThanOrEqual(overlay.x);
  expect(wrapped.x + wrapped.width).toBeLessThanOrEqual(overlay.x + overlay.width + 0.5);
  await page.setViewportSize({ width: 1280, height: 800 });

  // By keyboard alone, on a fresh load: "Next field" goes to the first empty required field, typing fills it.
  await page.reload();
  const next = page.getByRole("button", { name: "Next field" });
  await next.focus();
  await page.keyboard.press("Enter");
  await expect(address).toBeFocused();
  await page.keyboard.type("12 Garden Row, Leeds");
  const saved = page.waitForResponse((r) => r.request().method() === "PUT" && r.url().includes("/fields/"));
  await next.focus();
  expect((await saved).status()).toBe(200);
  await page.keyboard.press("Enter");
  await expect(unlabelled).toBeFocused();
  await page.keyboard.type("Flat 3");
  await next.focus();
  await page.keyboard.press("Enter");
  await expect(rules).toBeFocused();
  await page.keyboard.press("Space");
  await expect(rules).toBeChecked();
  await next.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("button", { name: /^Signature \(required\): press to sign$/ })).toBeFocused();

  // The label comes with the stored field: reloaded, the saved value sits under the same label.
  await page.reload();
  await expect(page.getByRole("textbox", { name: "Tenant address (required)", exact: true })).toHaveValue("12 Garden Row, Leeds");
});

test("a signing link that opens nothing answers 404 with the same clear page; a live link 200", async ({ page, request }) => {
  const pkg = await sentPackage(request, "Lease — links");
  const replaced = await signingPathFor(api(request), pkg.id, pkg.recipientSessions[0]!.id);
  const live = await signingPathFor(api(request), pkg.id, pkg.recipientSessions[0]!.id);
  expect(live).not.toBe(replaced);

  expect((await request.get(live)).status()).toBe(200);
  for (const path of [replaced, "/sign/this-is-not-a-real-signing-token-at-all-1234", "/sign/short", "/sign/%E2%9C%93-not-a-token"]) {
    const res = await request.get(path);
    expect(res.status(), path).toBe(404);
    expect(await res.text(), path).toContain("This signing link is not valid");
  }

  const res = await page.goto(replaced);
  expect(res!.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "This signing link is not valid" })).toBeVisible();
  await expect(page.getByText("Open the most recent email you received about this document")).toBeVisible();
  await expect(page.locator('meta[name="referrer"]')).toHaveAttribute("content", "no-referrer");
  await expect(page.locator('meta[name="robots"]').first()).toHaveAttribute("content", /noindex/);
  await expect(page).toHaveTitle("Sign · Foliosign");
  await expectAxeClean(page, "invalid signing link", "serious");
  await screenshotBoth(page, "signing-link-404");

  // The embedded signing page of a link that does not exist.
  const embedded = await request.get("/embed/s/emb_this-link-does-not-exist-0000");
  expect(embedded.status()).toBe(404);
  expect(await embedded.text()).toContain("This signing link is not valid");
});
