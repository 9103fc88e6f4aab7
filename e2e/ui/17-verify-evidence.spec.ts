/**
 * Time-stamped seals in the browser (issue 20): against a second app configured with a loopback RFC 3161 TSA
 * (20a's server/pdf/test-support/loopback-pki.ts; nothing leaves 127.0.0.1), a package sealed while the TSA
 * answers reaches B-LTA — the package page shows the level, the trusted time and the TSA, and /verify shows the
 * level and each time-stamp's time for the downloaded file — and one sealed while the TSA is stopped completes
 * anyway at B-B: the package page says the time-stamp is pending, and /verify says "No trusted time".
 * Screenshots at desktop and 390 px.
 */
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { startLoopbackPki, type TLoopbackPki } from "../../server/pdf/test-support/loopback-pki";
import { createApiKey } from "../support/api-key";
import { startAppWithTsa, type TAppWithTsa } from "../support/app-with-tsa";
import { activeTemplate, keyApi, signingPathFor } from "../support/key-api";
import { signInAsOwner } from "../support/owner";
import { failOnPageErrors } from "../support/page-errors";
import { titledPdf } from "../support/pdf";
import { screenshotBoth } from "../support/screenshot";

const PORT = Number(process.env.E2E_PORT ?? 3100) + 60;
const BASE_URL = `http://127.0.0.1:${PORT}`;
test.use({ baseURL: BASE_URL });
test.describe.configure({ mode: "serial", timeout: 180_000 });

const pageErrors = failOnPageErrors();

let pki: TLoopbackPki;
let app: TAppWithTsa;
let key = "";
let templateId = "";

test.beforeAll(async () => {
  pki = await startLoopbackPki();
  app = await startAppWithTsa(PORT, pki.tsaUrl);
});
test.afterAll(async () => {
  await app?.stop();
  await pki?.close();
});

type TEvidence = { level: string; timestampedAt: string | null; timestampAuthority: string | null; upgradePending: boolean };
type TPackage = { id: string; status: string; evidence: TEvidence | null; recipientSessions: { id: string }[] };

const api = (request: APIRequestContext) => keyApi(request, key);

/** The recipient signs through the signing page's own API (its token from a signing URL), as the page would. */
async function signAsRecipient(request: APIRequestContext, packageId: string, sessionId: string): Promise<void> {
  const token = decodeURIComponent((await signingPathFor(api(request), packageId, sessionId)).split("/").pop()!);
  const base = `/api/app/sign/${encodeURIComponent(token)}`;
  const headers = { origin: BASE_URL };
  const view = (await (await request.get(base)).json()) as { data: { fields: { id: string; type: string }[] } };
  expect((await request.post(`${base}/open`, { headers })).status()).toBe(200);
  expect((await request.post(`${base}/consent?timeZone=Europe/Paris`, { headers })).status()).toBe(200);
  for (const field of view.data.fields) {
    expect((await request.put(`${base}/fields/${field.id}`, { headers, data: { value: "Bea Buyer" } })).status()).toBe(200);
  }
  const finished = await request.post(`${base}/finish?timeZone=Europe/Paris`, { headers });
  expect(finished.status(), await finished.text()).toBe(200);
}

async function sealedPackage(request: APIRequestContext, title: string): Promise<TPackage> {
  const pkg = await api(request).post<TPackage>("/packages/from-template", {
    templateId,
    title,
    status: "sent",
    recipients: [{ email: "bea.buyer@example.com", name: "Bea Buyer", roleIndex: 0 }],
  });
  await signAsRecipient(request, pkg.id, pkg.recipientSessions[0]!.id);
  let done: TPackage | undefined;
  await expect
    .poll(
      async () => {
        done = await api(request).get<TPackage>(`/packages/${pkg.id}`);
        return done.status;
      },
      { timeout: 90_000, intervals: [500] },
    )
    .toBe("COMPLETED");
  return done!;
}

async function verifyInBrowser(page: Page, name: string, bytes: Buffer) {
  await page.goto("/verify");
  await page.getByLabel("PDF file").setInputFiles({ name, mimeType: "application/pdf", buffer: bytes });
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByText("Valid: sealed by this instance and unchanged")).toBeVisible({ timeout: 30_000 });
}

test("set up: a key and a template with one role and a signature field", async ({ page, request }) => {
  await signInAsOwner(page);
  key = await createApiKey(page, "Evidence e2e", "Admin", BASE_URL);
  templateId = await activeTemplate(api(request), request, {
    name: "Time-stamped lease",
    documentName: "lease.pdf",
    pdf: await titledPdf([["Lease agreement"]]),
    roles: ["Tenant"],
    fields: [{ roleIndex: 0, type: "signature", page: 1, x: 56, y: 600, width: 200, height: 50 }],
  });
});

test("with the TSA answering: B-LTA on the package page and on /verify, with the time-stamps' time and TSA", async ({ page, request }) => {
  const pkg = await sealedPackage(request, "Lease — time-stamped");
  expect(pkg.evidence).toMatchObject({ level: "B-LTA", upgradePending: false });
  expect(pkg.evidence!.timestampAuthority).toContain("Foliosign Loopback TSA");

  await signInAsOwner(page);
  await page.goto(`/packages/${pkg.id}`);
  const evidence = page.getByTestId("package-evidence");
  await expect(evidence.getByTestId("evidence-level")).toHaveText("PAdES B-LTA");
  await expect(evidence).toContainText("Foliosign Loopback TSA");
  await expect(evidence).not.toContainText("None: this server's clock only");
  await screenshotBoth(page, "package-evidence-b-lta");

  await verifyInBrowser(page, "lease.pdf", await api(request).bytes(`/packages/${pkg.id}/download`));
  const found = page.getByTestId("verify-evidence");
  await expect(found.getByTestId("verify-evidence-level")).toHaveText("PAdES B-LTA");
  await expect(found.getByTestId("verify-no-trusted-time")).toHaveCount(0);
  const stamps = found.getByTestId("verify-timestamp");
  expect(await stamps.count()).toBeGreaterThanOrEqual(2);
  await expect(stamps.first()).toContainText("Foliosign Loopback TSA");
  await expect(stamps.first()).toContainText("token checked: valid");
  // The time the TSA vouched for, as ISO text beside the local rendering: today's date.
  await expect(stamps.first()).toContainText(new Date().toISOString().slice(0, 10));
  await screenshotBoth(page, "verify-evidence-b-lta");
});

test("with the TSA stopped: completes anyway at B-B, upgrade pending; /verify says no trusted time", async ({ page, request }) => {
  await pki.stopTsa();
  const pkg = await sealedPackage(request, "Lease — TSA down");
  expect(pkg.evidence).toEqual({ level: "B-B", timestampedAt: null, timestampAuthority: null, upgradePending: true });
  const pdf = await api(request).bytes(`/packages/${pkg.id}/download`);

  await signInAsOwner(page);
  await page.goto(`/packages/${pkg.id}`);
  const evidence = page.getByTestId("package-evidence");
  await expect(evidence.getByTestId("evidence-level")).toHaveText("PAdES B-B");
  await expect(evidence).toContainText("None: this server's clock only");
  await expect(evidence.getByTestId("evidence-upgrade-pending")).toBeVisible();
  await screenshotBoth(page, "package-evidence-b-b-pending");

  await verifyInBrowser(page, "lease-b-b.pdf", pdf);
  const found = page.getByTestId("verify-evidence");
  await expect(found.getByTestId("verify-evidence-level")).toHaveText("PAdES B-B");
  await expect(found.getByTestId("verify-no-trusted-time")).toHaveText("No trusted time: the signing time is this server's clock only.");
  await expect(found.getByTestId("verify-timestamp")).toHaveCount(0);
  await screenshotBoth(page, "verify-evidence-b-b");
});

test("the Overview says when no TSA is configured (the shared server), and not when one is (this app)", async ({ page, browser }) => {
  await signInAsOwner(page);
  await page.goto("/");
  await expect(page.getByRole("heading", { name: /^Welcome/ })).toBeVisible();
  await expect(page.getByTestId("no-tsa-notice")).toHaveCount(0);

  const shared = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3100)}`;
  const context = await browser.newContext({ baseURL: shared, viewport: { width: 1280, height: 800 } });
  const other = await context.newPage();
  pageErrors.watch(other);
  await signInAsOwner(other);
  await other.goto("/");
  const notice = other.getByRole("status").filter({ hasText: "No time-stamping authority: seals carry this server's clock only" });
  await expect(notice).toBeVisible();
  await expect(notice).toContainText("TSA_URLS");
  await screenshotBoth(other, "overview-no-tsa");
  await context.close();
});
