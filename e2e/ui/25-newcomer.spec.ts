/**
 * What a newcomer meets (issue 25), in the built app at 1280 and 390 px, with axe on every page:
 * - point 2: in a sequential package the second signer sees the first signer's typed signature and text, read-only
 *   in dashed frames with a note saying who filled them in; the first signer saw none of the second's;
 * - point 6: a long typed name shows whole in its field (not cut off); the package timeline names who signed;
 *   /verify shows the completion time with its zone;
 * - point 4: every page of the signed-in app is axe-clean (no violation of any impact) at 1280 and at 390 px, and
 *   the tables (API keys, members, roles, webhooks) show every column's content at 390 px, their scroll boxes
 *   reachable by keyboard.
 */
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { createApiKey } from "../support/api-key";
import { appRequest } from "../support/app-request";
import { expectAxeClean } from "../support/axe";
import { activeTemplate, keyApi, signatureAndTextPerRole, signingPathFor } from "../support/key-api";
import { signInAsOwner } from "../support/owner";
import { failOnPageErrors } from "../support/page-errors";
import { titledPdf } from "../support/pdf";
import { screenshot, screenshotBoth } from "../support/screenshot";
import { consent } from "../support/signing";

test.describe.configure({ mode: "serial" });

failOnPageErrors();

const LONG_NAME = "Maximilian Alexander Bartholomew-Featherstonehaugh";
let key = "";
let templateId = "";
let packageId = "";

type TPackage = { id: string; status: string; recipientSessions: { id: string }[] };

const api = (request: APIRequestContext) => keyApi(request, key);

test("set up: a key, a template with two roles (signature and text each), a webhook endpoint, a second member", async ({ page, request }) => {
  await signInAsOwner(page);
  key = await createApiKey(page, "Newcomer e2e", "Admin");
  const a = api(request);
  templateId = await activeTemplate(a, request, {
    name: "Lease renewal",
    documentName: "lease.pdf",
    // A second page: the shared consent helper waits for page 2 to be laid out.
    pdf: await titledPdf([["Lease renewal — Flat 4B", "The tenant and the landlord renew the lease for twelve months."], ["Annex — house rules"]]),
    roles: ["Tenant", "Landlord"],
    fields: signatureAndTextPerRole(1, ["Tenant address", "Landlord company"], { signatureY: 560, signatureHeight: 40, textY: 620 }),
  });
  await a.post("/webhooks", { url: "http://127.0.0.1:9/foliosign/newcomer", events: ["PACKAGE_COMPLETED"], description: "Newcomer e2e" });
  const roles = (await (await page.request.get("/api/app/roles")).json()) as { data: { id: string; name: string }[] };
  const member = await appRequest(page).post("/api/app/members", {
    data: {
      method: "password",
      email: "nora.newcomer@acme.test",
      name: "Nora Newcomer",
      roleId: roles.data.find((r) => r.name === "Sender")!.id,
      password: "newcomer-password-1",
    },
  });
  expect([201, 409]).toContain(member.status());
});

test("the second signer sees the first signer's entries read-only; a long typed name shows whole", async ({ page, request }) => {
  const pkg = await api(request).post<TPackage>("/packages/from-template", {
    templateId,
    title: "Lease renewal — Flat 4B",
    status: "sent",
    recipients: [
      { email: "max@example.com", name: LONG_NAME, roleIndex: 0 },
      { email: "lena@example.com", name: "Lena Landlord", roleIndex: 1 },
    ],
  });
  packageId = pkg.id;
  const link = (i: number) => signingPathFor(api(request), pkg.id, pkg.recipientSessions[i]!.id);

  await page.goto(await link(0));
  await consent(page);
  // The first signer: nothing of anyone else on the page.
  await expect(page.locator("[data-completed-field]")).toHaveCount(0);
  await page.getByLabel("Tenant address (required)").fill("12 Rue de la Paix, Paris");
  await page.getByLabel("Tenant address (required)").press("Tab");
  await expect(page.getByText("1 of 2")).toBeVisible();
  await page.getByRole("button", { name: /^Signature \(required\): / }).click();
  const dialog = page.getByRole("dialog", { name: "Add your signature" });
  await dialog.getByRole("button", { name: "Type" }).click();
  await dialog.getByLabel("Type your signature").fill(LONG_NAME);
  await dialog.getByRole("button", { name: "Use this signature" }).click();
  const typed = page.locator("[data-field-id] [data-typed-value]");
  await expect(typed).toHaveText(LONG_NAME);
  // Whole: the text fits its field (no ellipsis, nothing clipped), at desktop and on a phone.
  const fits = () => typed.evaluate((el) => el.scrollWidth <= el.parentElement!.clientWidth + 1);
  await expect.poll(fits).toBe(true);
  await expect(page.getByText("2 of 2")).toBeVisible();
  await expectAxeClean(page, "the first signer's filled page");
  await screenshotBoth(page, "signing-typed-long-name");
  await page.setViewportSize({ width: 390, height: 844 });
  await expect.poll(fits).toBe(true);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByRole("button", { name: "Finish" }).click();
  await expect(page.getByRole("heading", { name: "You're done — thank you" })).toBeVisible();

  await page.goto(await link(1));
  await consent(page);
  const earlier = page.locator("[data-completed-field]");
  await expect(earlier).toHaveCount(2);
  await expect(page.locator("[data-completed-note]")).toContainText(`filled in by ${LONG_NAME}`);
  await expect(page.locator("[data-completed-note]")).toContainText("cannot be changed");
  // The typed signature, drawn in its frame (the frames' screen-reader text names the signer too).
  await expect(earlier.locator("[data-typed-value]")).toHaveText([LONG_NAME, "12 Rue de la Paix, Paris"]);
  await expect(earlier.filter({ hasText: "12 Rue de la Paix, Paris" })).toHaveCount(1);
  // Read-only: nothing in those frames can take focus or input.
  await expect(earlier.locator("input, button, textarea, [tabindex]")).toHaveCount(0);
  // The second signer's own fields are still there to fill.
  await expect(page.getByRole("button", { name: /^Signature \(required\): / })).toHaveCount(1);
  await expectAxeClean(page, "the second signer's page");
  await screenshotBoth(page, "signing-earlier-signers");

  // The text first, saved (1 of 2), then the signature: a value typed while the dialog closes can be lost.
  await page.getByLabel("Landlord company (required)").fill("Landlord & Co");
  await page.getByLabel("Landlord company (required)").press("Tab");
  await expect(page.getByText("1 of 2")).toBeVisible();
  await page.getByRole("button", { name: /^Signature \(required\): / }).click();
  await dialog.getByRole("button", { name: "Type" }).click();
  await dialog.getByLabel("Type your signature").fill("Lena Landlord");
  await dialog.getByRole("button", { name: "Use this signature" }).click();
  await expect(page.getByText("2 of 2")).toBeVisible();
  await page.getByRole("button", { name: "Finish" }).click();
  await expect(page.getByRole("heading", { name: "Everyone has signed" })).toBeVisible();
});

test("the timeline names who signed; /verify shows the completion time with its zone", async ({ page, request }) => {
  await signInAsOwner(page);
  await page.goto(`/packages/${packageId}`);
  const signed = page.getByTestId("timeline-event").filter({ hasText: "Signed by a recipient" });
  await expect(signed).toHaveCount(2);
  await expect(signed.filter({ hasText: `${LONG_NAME} (max@example.com)` })).toHaveCount(1);
  await expect(signed.filter({ hasText: "Lena Landlord (lena@example.com)" })).toHaveCount(1);
  await expect(page.getByTestId("timeline")).not.toContainText("Signed by a recipient · Foliosign");
  await expectAxeClean(page, "the package page");
  await screenshotBoth(page, "package-timeline-signers");

  // Sealed (the worker seals the completed package); then the merged PDF checks out on /verify.
  let bytes: Buffer | null = null;
  await expect
    .poll(
      async () => {
        const res = await request.get(`/api/v1/packages/${packageId}/download`, { headers: { authorization: `Bearer ${key}` } });
        if (res.status() === 200) bytes = Buffer.from(await res.body());
        return res.status();
      },
      { timeout: 90_000 },
    )
    .toBe(200);
  await page.goto("/verify");
  await page.getByLabel("PDF file").setInputFiles({ name: "lease.pdf", mimeType: "application/pdf", buffer: bytes! });
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByText("Valid: sealed by this instance and unchanged")).toBeVisible();
  // The ui project runs in Europe/Paris: the time names its zone (CET/CEST, or GMT+1/+2 as en-GB writes it); en-GB
  // writes the hour after midnight as one digit ("26 Nov 2026, 0:09:47 CET").
  await expect(page.locator("dd time").first()).toHaveText(/\d{1,2}:\d{2}:\d{2}.*(GMT[+-]\d|CES?T|UTC)/);
  await expectAxeClean(page, "/verify with a result");
  await screenshotBoth(page, "verify-valid-zone");
});

const APP_PAGES: [string, string][] = [
  ["overview", "/"],
  ["packages", "/packages"],
  ["package-new", "/packages/new"],
  ["package-detail", "PACKAGE"],
  ["templates", "/templates"],
  ["template-editor", "TEMPLATE"],
  ["library", "/library"],
  ["webhooks", "/webhooks"],
  ["mail", "/mail"],
  ["api-keys", "/settings/api-keys"],
  ["members", "/settings/members"],
  ["roles", "/settings/roles"],
  ["workspaces", "/settings/workspaces"],
  ["signing-groups", "/settings/signing-groups"],
  ["custom-fields", "/settings/custom-fields"],
  ["plan", "/settings/plan"],
  ["security", "/settings/security"],
  ["mail-settings", "/settings/mail"],
];

test("every app page is axe-clean at 1280 and at 390 px", async ({ page }) => {
  test.setTimeout(300_000);
  await signInAsOwner(page);
  const failures: string[] = [];
  for (const [name, href] of APP_PAGES) {
    const url = href === "PACKAGE" ? `/packages/${packageId}` : href === "TEMPLATE" ? `/templates/${templateId}` : href;
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
      await page.goto(url);
      await page.waitForLoadState("networkidle");
      const result = await new AxeBuilder({ page }).analyze();
      for (const v of result.violations) failures.push(`${name} @${width}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(" ")).join(" | ")}`);
    }
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  expect(failures).toEqual([]);
});

test("tables on a phone: API keys shows each key's status and Revoke on screen; every table fits or scrolls in its own box", async ({ page }) => {
  await signInAsOwner(page);
  for (const [name, href, table] of [
    ["api-keys", "/settings/api-keys", "API keys"],
    ["members", "/settings/members", "Members"],
    ["roles", "/settings/roles", "Roles"],
    ["webhooks", "/webhooks", "Webhook endpoints"],
  ] as const) {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(href);
    await page.waitForLoadState("networkidle");
    // The webhooks list is cards on a phone (each endpoint's state in its card): no table there to check.
    if (name !== "webhooks") await expect(page.getByRole("table", { name: table }), name).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth), name).toBeLessThanOrEqual(390);
    if (name === "api-keys") {
      const row = page.getByRole("table", { name: table }).locator("tbody tr").first();
      await expect(row.getByText(/^(Active|Expired|Revoked|Expires)/).first()).toBeInViewport({ ratio: 1 });
      await expect(row.getByRole("button", { name: /Revoke/ })).toBeInViewport({ ratio: 1 });
    }
    await screenshot(page, `phone-table-${name}-390`);
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect(page.getByRole("table", { name: table }), name).toBeVisible();
    await screenshot(page, `phone-table-${name}`);
  }
});
