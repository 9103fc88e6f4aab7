/**
 * The recipient's signing page end to end against the built app. Set up through the API (a key made in the
 * app; a template with a two-page PDF, two roles each with a signature and a text field, ACTIVE:
 * e2e/support/service-agreement.ts; a package from it with two recipients in order, sent); each recipient's link
 * comes from the signing-URL operation. Recipient one draws a signature with the mouse and finishes; only then can recipient two get a
 * link; recipient two sees recipient one's finished fields read-only, their labels on screen, then on a 390 px phone
 * types a non-Latin signature and finishes; the package completes.
 * Also: the required-field messages, decline with a reason, the hold page, the void and invalid-link pages, a
 * double submit, axe-core on every state (no serious or critical violation) and screenshots at desktop and 390 px.
 * The keyboard's focus and long titles at 390 px: 32-signing-keyboard-long-titles.spec.ts.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { appRequest } from "../support/app-request";
import { expectAxeClean } from "../support/axe";
import { signInAsOwner } from "../support/owner";
import { failOnPageErrors } from "../support/page-errors";
import { screenshot, screenshotBoth } from "../support/screenshot";
import { setUpServiceAgreement, type TServiceAgreement, type TServiceAgreementPackage } from "../support/service-agreement";
import { consent } from "../support/signing";

test.describe.configure({ mode: "serial" });

failOnPageErrors();

/** Set by the set-up test: the key, the template, and the calls built on them. */
let sa: TServiceAgreement;
/** The package the main flow completes; the package-page test reads its files and mail. */
let completedPackageId = "";

type TPackage = TServiceAgreementPackage;

const api = (request: APIRequestContext) => sa.api(request);
const sentPackage = (request: APIRequestContext, title: string) => sa.sentPackage(request, title);
const signingUrl = (request: APIRequestContext, pkg: TPackage, index: number) => sa.signingUrl(request, pkg, index);
const expectAccessible = (page: Page) => expectAxeClean(page, page.url(), "serious");

test("set up: an API key, and an ACTIVE template with two roles, each with a signature and a text field", async ({ page, request }) => {
  sa = await setUpServiceAgreement(page, request, "Signing e2e");
});

test("recipient one draws and finishes; only then recipient two types a non-Latin signature on a phone; the package completes", async ({ page, request }) => {
  const pkg = await sentPackage(request, "Service agreement — Clara");
  // Recipient two's turn has not come: no link yet.
  expect(await api(request).status(`/packages/${pkg.id}/signing-url`, { sessionId: pkg.recipientSessions[1]!.id })).toBe(409);
  const first = await signingUrl(request, pkg, 0);

  await page.goto(first);
  await expect(page.getByRole("heading", { name: "Before you sign" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main" })).toHaveCount(0);
  await expectAccessible(page);
  await screenshotBoth(page, "signing-consent");
  await consent(page);

  const signature = page.getByRole("button", { name: /^Signature \(required\): / });
  const address = page.getByLabel("Client address (required)");
  await expect(page.getByText("0 of 2")).toBeVisible();
  // Finishing too early names what is missing.
  await page.getByRole("button", { name: "Finish" }).click();
  await expect(page.getByText("2 required fields are still empty")).toBeVisible();
  await expect(address).toHaveAttribute("aria-invalid", "true");
  // Finish moved the focus to the first missing field (checked at once: the screenshots below resize the window).
  await expect(signature).toBeFocused();
  await expectAccessible(page);
  await screenshotBoth(page, "signing-required-missing");

  // "Next field" goes on from the first missing field to the next empty one.
  await page.getByRole("button", { name: "Next field" }).click();
  await expect(address).toBeFocused();
  await signature.click();
  const dialog = page.getByRole("dialog", { name: "Add your signature" });
  const pad = dialog.getByRole("img", { name: /Draw your signature/ });
  const box = (await pad.boundingBox())!;
  await page.mouse.move(box.x + 30, box.y + box.height * 0.7);
  await page.mouse.down();
  for (let i = 1; i <= 12; i++) await page.mouse.move(box.x + 30 + i * 20, box.y + box.height * (0.7 - 0.4 * Math.abs(Math.sin(i / 2))), { steps: 3 });
  await page.mouse.up();
  await expectAccessible(page);
  await screenshot(page, "signing-draw-dialog");
  await dialog.getByRole("button", { name: "Use this signature" }).click();
  await expect(dialog).toBeHidden();
  await expect(signature).toHaveAccessibleName(/signed, press to change/);
  await expect(signature.locator("img")).toBeVisible();
  // The stored drawing is the ink, cropped: wide and tall enough to be a signature, not an empty pixel.
  const drawn = await signature.locator("img").evaluate((img: HTMLImageElement) => ({ w: img.naturalWidth, h: img.naturalHeight }));
  expect(drawn.w).toBeGreaterThan(200);
  expect(drawn.h).toBeGreaterThan(20);

  await page.getByRole("button", { name: "Next field" }).click();
  await expect(address).toBeFocused();
  await address.fill("12 Rue de la Paix, Paris");
  await address.press("Tab");
  await expect(page.getByText("2 of 2")).toBeVisible();
  await expectAccessible(page);
  await screenshotBoth(page, "signing-filled");

  await page.getByRole("button", { name: "Finish" }).click();
  await expect(page.getByRole("heading", { name: "You're done — thank you" })).toBeVisible();
  await expectAccessible(page);
  await screenshotBoth(page, "signing-finished");

  // Now it is recipient two's turn. Clara's finished fields are read-only in dashed frames, each labelled on
  // screen as recipient two's own fields are (it was heard by a screen reader only): above its frame, not over
  // the value, and inside the page at 390 px.
  const second = await signingUrl(request, pkg, 1);
  await page.goto(second);
  await consent(page);
  const earlierAddress = page.locator("[data-completed-field]").filter({ hasText: "12 Rue de la Paix, Paris" });
  const earlierLabel = page.getByText("Client address", { exact: true });
  const labelAboveItsFrame = async () => {
    const label = (await earlierLabel.boundingBox())!;
    const frame = (await earlierAddress.boundingBox())!;
    const overlay = (await page.locator("[data-page-overlay='2']").boundingBox())!;
    expect(label.y + label.height).toBeLessThanOrEqual(frame.y);
    expect(label.x).toBeGreaterThanOrEqual(overlay.x);
    expect(label.x + label.width).toBeLessThanOrEqual(overlay.x + overlay.width + 0.5);
  };
  await expect(earlierAddress).toBeVisible();
  await expect(earlierLabel).toBeVisible();
  await labelAboveItsFrame();
  await expectAccessible(page);
  await screenshotBoth(page, "signing-earlier-signer-labels");

  // On a phone from here on.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(earlierLabel).toBeVisible();
  await expect.poll(async () => (await page.locator("[data-page-overlay='2']").boundingBox())!.width).toBeLessThanOrEqual(390);
  await labelAboveItsFrame();
  await page.getByRole("button", { name: "Next field" }).click();
  const sig2 = page.getByRole("button", { name: /^Signature \(required\): / });
  await expect(sig2).toBeFocused();
  await page.keyboard.press("Enter");
  const dialog2 = page.getByRole("dialog", { name: "Add your signature" });
  await dialog2.getByRole("button", { name: "Type" }).click();
  await dialog2.getByLabel("Type your signature").fill("李小龙");
  await expect(dialog2.locator("[data-typed-preview]")).toHaveText("李小龙");
  await expectAccessible(page);
  await screenshot(page, "signing-typed-cjk-390");
  await dialog2.getByLabel("Type your signature").fill("Анна Иванова");
  await screenshot(page, "signing-typed-cyrillic-390");
  await dialog2.getByRole("button", { name: "Use this signature" }).click();
  await expect(sig2).toContainText("Анна Иванова");
  await page.getByLabel("Provider company (required)").fill("شركة المثال");
  await page.getByLabel("Provider company (required)").press("Tab");
  await expect(page.getByText("2 of 2")).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, "signing-filled-390");
  await page.getByRole("button", { name: "Finish" }).click();
  await expect(page.getByRole("heading", { name: "Everyone has signed" })).toBeVisible();
  await expect(page.getByText("You will receive the signed copy by email")).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, "signing-completed-390");
  await page.setViewportSize({ width: 1280, height: 800 });
  await screenshot(page, "signing-completed");

  // Completed (sealing is a later job; until it lands the package completes at once).
  await expect.poll(async () => (await api(request).get<TPackage>(`/packages/${pkg.id}`)).status, { timeout: 30_000 }).toBe("COMPLETED");
  completedPackageId = pkg.id;
  // Recipient one's link now shows the completed page too.
  await page.goto(first);
  await expect(page.getByRole("heading", { name: "Everyone has signed" })).toBeVisible();
});

/**
 * Keyboard users keep their place (newcomer audit #4): the page unmounts the signature dialog rather than
 * closing it, which once dropped the focus to <body> after "Use this signature", Cancel or Escape. Each now
 * hands the focus back to the field that opened the dialog (and "Next field" goes on from there); Decline's
 * Cancel and Escape go back to Decline.
 */
type TMailRow = { id: string; kind: string; to: { email: string }; status: string };
const KIND_LABEL: Record<string, string> = {
  INVITATION: "Invitation",
  REMINDER: "Reminder",
  COMPLETED: "Completed copy",
  DECLINED: "Decline notice",
  VOIDED: "Void notice",
  EXPIRED: "Expiry notice",
};

test("the package page: the signed files once completed, the certificate with zones and the chain head, and the package's mail", async ({ page }) => {
  expect(completedPackageId, "the main flow completed a package").not.toBe("");
  await signInAsOwner(page);
  await page.goto(`/packages/${completedPackageId}`);
  await expect(page.getByTestId("package-status")).toHaveText("Completed");
  const files = page.getByRole("navigation", { name: "Signed files" });
  await expect(files.getByRole("link")).toHaveText(["Download signed PDF", "Download zip", "Download certificate"]);

  // Each link serves the real file through the member's session.
  const dir = mkdtempSync(path.join(tmpdir(), "foliosign-e2e-files-"));
  try {
    const fetched: Record<string, string> = {};
    for (const [name, type, magic] of [
      ["Download signed PDF", "application/pdf", "%PDF"],
      ["Download zip", "application/zip", "PK\x03\x04"],
      ["Download certificate", "application/pdf", "%PDF"],
    ] as const) {
      const href = await files.getByRole("link", { name }).getAttribute("href");
      const res = await page.request.get(href!);
      expect(res.status(), name).toBe(200);
      expect(res.headers()["content-type"]).toBe(type);
      const body = await res.body();
      expect(body.subarray(0, 4).toString("latin1")).toBe(magic);
      fetched[name] = path.join(dir, `${name.replaceAll(" ", "-")}.bin`);
      writeFileSync(fetched[name], body);
    }
    // The browsers signed from Europe/Paris (the ui project's zone), reported at consent and finish: the
    // certificate prints their times there and in UTC, and the head of the audit hash chain.
    const text = execFileSync("pdftotext", ["-enc", "UTF-8", fetched["Download certificate"]!, "-"], { encoding: "utf8" });
    expect(text).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d GMT[+-]\d\d:\d\d \(Europe\/Paris\) · \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
    expect(text).not.toContain("time zone not recorded");
    expect(text).toMatch(/Hash-chain head\s+[0-9a-f]{64}/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  // The mail panel shows exactly what the server holds for this package: each message's kind, recipient and
  // status, linked to its page on /mail. (The invitations appear here once package transitions queue mail.)
  const mailPanel = page.getByTestId("package-mail");
  const res = await page.request.get(`/api/app/packages/${completedPackageId}/mail`);
  expect(res.status()).toBe(200);
  const { messages } = ((await res.json()) as { data: { messages: TMailRow[] } }).data;
  const rows = mailPanel.getByTestId("mail-row");
  if (messages.length === 0) {
    await expect(mailPanel).toContainText("No mail yet");
  } else {
    await expect(rows).toHaveCount(messages.length);
    for (const [i, m] of messages.entries()) {
      await expect(rows.nth(i)).toContainText(KIND_LABEL[m.kind]!);
      await expect(rows.nth(i)).toContainText(m.to.email);
      await expect(rows.nth(i).getByRole("link")).toHaveAttribute("href", `/mail/${m.id}`);
    }
    expect(
      messages
        .filter((m) => m.kind === "INVITATION")
        .map((m) => m.to.email)
        .sort(),
    ).toEqual(["clara@client.test", "li@provider.test"]);
  }
  await expectAccessible(page);
  await screenshotBoth(page, "package-completed-files-mail");
});

/**
 * A failed seal must be visible to the owner, in words, with its attempts and next retry. No real operation
 * makes sealing fail on a healthy instance (the server side — the failure stored, GET showing RETRYING, the
 * retry schedule — is proven in vitest, server/domain/sealing/sealing-job.test.ts), so this test takes the real
 * answer for a package and changes only its `sealing` to the RETRYING shape that test shows. Likewise the mail
 * panel's rows: SENT, FAILED with the server's reply, and QUEUED after a refused attempt.
 */
test("the package page shows a failing seal in plain words, and each message's delivery in the mail panel", async ({ page, request }) => {
  await signInAsOwner(page);
  const pkg = await sentPackage(request, "Service agreement — seal failing");
  const detail = `/api/app/packages/${pkg.id}`;
  const next = new Date(Date.now() + 4 * 60_000 + 30_000).toISOString();
  const isDetail = (url: URL) => url.pathname === detail;
  await page.route(isDetail, async (route) => {
    const real = await route.fetch();
    const body = (await real.json()) as { data: Record<string, unknown> };
    body.data.sealing = {
      state: "RETRYING",
      requestedAt: new Date().toISOString(),
      attempts: 3,
      lastError: "The original of “agreement.pdf” is missing from storage",
      nextAttemptAt: next,
    };
    await route.fulfill({ response: real, json: body });
  });
  // The mail panel the same way: the three outcomes the mail vitest proves (server/domain/mail/package-mail.test.ts).
  const isMail = (url: URL) => url.pathname === `${detail}/mail`;
  const base = { subject: "Please sign", transport: "smtp", packageId: pkg.id, sessionId: null, createdAt: new Date(Date.now() - 600_000).toISOString() };
  await page.route(isMail, (route) =>
    route.fulfill({
      json: {
        data: {
          messages: [
            {
              ...base,
              id: "mail_sent",
              kind: "INVITATION",
              to: { email: "clara@example.com", name: "Clara Client" },
              status: "SENT",
              attempts: 1,
              nextAttemptAt: null,
              lastError: null,
              sentAt: base.createdAt,
            },
            {
              ...base,
              id: "mail_failed",
              kind: "INVITATION",
              to: { email: "bounce@example.com", name: null },
              status: "FAILED",
              attempts: 1,
              nextAttemptAt: null,
              lastError: "550 Mailbox unavailable",
              sentAt: null,
            },
            {
              ...base,
              id: "mail_retry",
              kind: "REMINDER",
              to: { email: "li@example.com", name: "Li Provider" },
              status: "QUEUED",
              attempts: 2,
              nextAttemptAt: next,
              lastError: "451 Try again later",
              sentAt: null,
            },
          ],
        },
      },
    }),
  );
  await page.goto(`/packages/${pkg.id}`);
  const rows = page.getByTestId("package-mail").getByTestId("mail-row");
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toContainText("Invitation");
  await expect(rows.nth(0)).toContainText("Sent");
  await expect(rows.nth(1)).toContainText("Failed");
  await expect(rows.nth(1)).toContainText("Gave up after 1 attempt");
  await expect(rows.nth(1)).toContainText("Last error: 550 Mailbox unavailable");
  await expect(rows.nth(2)).toContainText("Attempt 2 failed; next in 4 minutes");
  await expect(rows.nth(2).getByRole("link", { name: "Reminder to li@example.com" })).toHaveAttribute("href", "/mail/mail_retry");
  const panel = page.getByTestId("package-files");
  await expect(panel.getByRole("alert")).toContainText("Sealing failed 3 times: retrying automatically");
  await expect(panel.getByTestId("sealing-error")).toHaveText("Last error: The original of “agreement.pdf” is missing from storage");
  await expect(panel).toContainText("Next attempt in 4 minutes");
  await expect(page.getByRole("navigation", { name: "Signed files" })).toHaveCount(0);
  await expectAccessible(page);
  await screenshotBoth(page, "package-sealing-failed");
  await page.unroute(isDetail);
  await page.unroute(isMail);

  // The real answer for the same package: not signed yet, so the panel says what will be here.
  await page.reload();
  await expect(page.getByTestId("package-files")).toContainText("Once every recipient has signed");
});

test("declining asks for a reason and ends the package", async ({ page, request }) => {
  const pkg = await sentPackage(request, "Service agreement — declined");
  await page.goto(await signingUrl(request, pkg, 0));
  await page.getByRole("button", { name: "Decline" }).click();
  const dialog = page.getByRole("dialog", { name: "Decline to sign" });
  await dialog.getByRole("button", { name: "Decline to sign" }).click();
  await expect(dialog.getByText("Tell the sender why you decline")).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, "signing-decline-dialog");
  await dialog.getByLabel("Reason").fill("The price is not the one we agreed");
  await dialog.getByRole("button", { name: "Decline to sign" }).click();
  await expect(page.getByRole("heading", { name: "You declined to sign" })).toBeVisible();
  await expectAccessible(page);
  await screenshotBoth(page, "signing-declined");
  expect((await api(request).get<TPackage>(`/packages/${pkg.id}`)).status).toBe("DECLINED");
  await page.reload();
  await expect(page.getByRole("heading", { name: "You declined to sign" })).toBeVisible();
});

test("a package on hold shows the hold page; resumed, the link works again", async ({ page, request }) => {
  const pkg = await sentPackage(request, "Service agreement — held");
  const link = await signingUrl(request, pkg, 0);
  await api(request).post(`/packages/${pkg.id}/hold`, {});
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "Signing is on hold" })).toBeVisible();
  await expectAccessible(page);
  await screenshotBoth(page, "signing-on-hold");
  await api(request).post(`/packages/${pkg.id}/resume`, {});
  await page.reload();
  await expect(page.getByRole("heading", { name: "Before you sign" })).toBeVisible();
});

test("not your turn: no link for recipient two before recipient one finishes (409)", async ({ request }) => {
  const pkg = await sentPackage(request, "Service agreement — order");
  expect(await api(request).status(`/packages/${pkg.id}/signing-url`, { sessionId: pkg.recipientSessions[1]!.id })).toBe(409);
});

test("a double submit completes once and both answers show the finished page", async ({ page, request }) => {
  const pkg = await sentPackage(request, "Service agreement — double");
  const link = await signingUrl(request, pkg, 0);
  await page.goto(link);
  await consent(page);
  await page.getByRole("button", { name: /^Signature \(required\): / }).click();
  const dialog = page.getByRole("dialog", { name: "Add your signature" });
  await dialog.getByRole("button", { name: "Type" }).click();
  await dialog.getByLabel("Type your signature").fill("Clara Client");
  await dialog.getByRole("button", { name: "Use this signature" }).click();
  // The modal keeps the page inert until the signature is stored.
  await expect(dialog).toBeHidden();
  await page.getByLabel("Client address (required)").fill("1 Main Street");
  await page.getByLabel("Client address (required)").press("Tab");
  await expect(page.getByText("2 of 2")).toBeVisible();
  const token = link.split("/sign/")[1]!;
  const finishes = await Promise.all([0, 1, 2].map(() => appRequest(page).post(`/api/app/sign/${token}/finish`)));
  for (const res of finishes) {
    expect(res.status()).toBe(200);
    expect(((await res.json()) as { data: { reason: string } }).data.reason).toBe("FINISHED");
  }
  const audit = await api(request).get<{ auditEvents?: { action: string }[]; events?: { action: string }[] }>(`/packages/${pkg.id}/audit-events?pageSize=100`);
  const actions = (audit.auditEvents ?? audit.events ?? []).map((e) => e.action);
  expect(actions.filter((a) => a === "session.completed")).toHaveLength(1);
  // The page, still open, finishes into the same end page.
  await page.getByRole("button", { name: "Finish" }).dblclick();
  await expect(page.getByRole("heading", { name: "You're done — thank you" })).toBeVisible();
});

test("a voided package and an unknown link show their own pages", async ({ page, request }) => {
  const pkg = await sentPackage(request, "Service agreement — voided");
  const link = await signingUrl(request, pkg, 0);
  await api(request).post(`/packages/${pkg.id}/void`, { reason: "Sent by mistake" });
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "This document was cancelled" })).toBeVisible();
  await expectAccessible(page);
  await screenshotBoth(page, "signing-voided");

  await page.goto("/sign/this-is-not-a-real-signing-token-at-all-1234");
  await expect(page.getByRole("heading", { name: "This signing link is not valid" })).toBeVisible();
  await expectAccessible(page);
  await screenshotBoth(page, "signing-invalid-link");
});
