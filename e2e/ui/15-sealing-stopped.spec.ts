/**
 * A seal that keeps failing must be visible and, once it stops, retryable (issue 24 item 4): the package page
 * says sealing stopped, after how many attempts and why, and offers "Retry sealing"; the Overview lists the
 * packages whose sealing stopped or keeps failing. No real operation makes sealing fail on a healthy instance
 * (the upload check now refuses what the sealer cannot take; the server side — attempts bounded, FAILED on GET,
 * the audit event, the retry and its gates, the overview's list — is proven in vitest,
 * server/domain/sealing/seal-attempts.test.ts), so these tests take a real sent package and change only the
 * answers that carry the sealing state. Screenshots at desktop and 390 px.
 */
import AxeBuilder from "@axe-core/playwright";
import { PDF, StandardFonts } from "@libpdf/core";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { createApiKey } from "../support/api-key";
import { signInAsOwner } from "../support/owner";
import { screenshotBoth } from "../support/screenshot";

test.describe.configure({ mode: "serial" });

const pageErrors: string[] = [];
test.afterEach(() => {
  expect(pageErrors.splice(0)).toEqual([]);
});
test.beforeEach(async ({ page }) => {
  page.on("pageerror", (err) => pageErrors.push(err.stack ?? err.message));
});

let key = "";
let packageId = "";
const ERROR = "Maximum call stack size exceeded";

async function post<T>(request: APIRequestContext, path: string, data: unknown): Promise<T> {
  const res = await request.post(`/api/v1${path}`, { headers: { authorization: `Bearer ${key}` }, data });
  expect([200, 201], `${path}: ${await res.text()}`).toContain(res.status());
  return ((await res.json()) as { data: T }).data;
}

async function expectAccessible(page: Page) {
  const result = await new AxeBuilder({ page }).analyze();
  const bad = result.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(" | ")}`)).toEqual([]);
}

test("set up: a sent package (a template with one role and a signature field)", async ({ page, request }) => {
  await signInAsOwner(page);
  key = await createApiKey(page, "Sealing e2e", "Admin");
  const templateId = (await post<{ id: string }>(request, "/templates", { name: "Supply contract" })).id;
  const pdf = PDF.create();
  pdf.addPage({ size: "a4" }).drawText("Supply contract", { x: 56, y: 770, size: 20, font: StandardFonts.Helvetica });
  const bytes = Buffer.from(await pdf.save());
  const added = await post<{ document: { id: string }; uploadUrl: string }>(request, `/templates/${templateId}/documents`, {
    name: "contract.pdf",
    fileSize: bytes.length,
    contentType: "application/pdf",
  });
  expect((await request.put(added.uploadUrl, { data: bytes, headers: { "content-type": "application/pdf" } })).status()).toBe(200);
  await post(request, `/templates/${templateId}/roles`, { name: "Buyer" });
  await post(request, `/templates/${templateId}/fields`, {
    documentId: added.document.id,
    roleIndex: 0,
    type: "signature",
    page: 1,
    x: 56,
    y: 600,
    width: 200,
    height: 50,
  });
  const activated = await request.patch(`/api/v1/templates/${templateId}`, { headers: { authorization: `Bearer ${key}` }, data: { status: "ACTIVE" } });
  expect(activated.status()).toBe(200);
  const pkg = await post<{ id: string }>(request, "/packages/from-template", {
    templateId,
    title: "Supply contract — Northwind",
    status: "sent",
    recipients: [{ email: "buyer@example.com", name: "Bea Buyer", roleIndex: 0 }],
  });
  packageId = pkg.id;
});

test("the package page says sealing stopped, why, and offers Retry sealing", async ({ page }) => {
  await signInAsOwner(page);
  const detail = `/api/app/packages/${packageId}`;
  const requestedAt = new Date(Date.now() - 2 * 3_600_000).toISOString();
  let sealing: Record<string, unknown> = {
    state: "FAILED",
    requestedAt,
    attempts: 8,
    lastError: ERROR,
    nextAttemptAt: null,
    failedAt: new Date(Date.now() - 60_000).toISOString(),
  };
  await page.route(
    (url) => url.pathname === detail,
    async (route) => {
      const real = await route.fetch();
      const body = (await real.json()) as { data: Record<string, unknown> };
      body.data.sealing = sealing;
      await route.fulfill({ response: real, json: body });
    },
  );
  let retried = 0;
  await page.route(
    (url) => url.pathname === `${detail}/seal/retry`,
    async (route) => {
      expect(route.request().method()).toBe("POST");
      retried += 1;
      sealing = { state: "PENDING", requestedAt, attempts: 0, lastError: ERROR, nextAttemptAt: new Date().toISOString(), failedAt: null };
      const real = await route.fetch({ url: detail, method: "GET", headers: {} });
      const body = (await real.json()) as { data: Record<string, unknown> };
      body.data.sealing = sealing;
      await route.fulfill({ status: 200, json: body });
    },
  );
  await page.goto(`/packages/${packageId}`);
  const panel = page.getByTestId("package-files");
  await expect(panel.getByRole("alert")).toContainText("Sealing stopped after 8 attempts");
  await expect(panel.getByTestId("sealing-error")).toHaveText(`Last error: ${ERROR}`);
  await expect(panel).toContainText("no further attempt will run on its own");
  await expect(page.getByRole("navigation", { name: "Signed files" })).toHaveCount(0);
  await expectAccessible(page);
  await screenshotBoth(page, "package-sealing-stopped");

  await panel.getByRole("button", { name: "Retry sealing" }).click();
  await expect(panel.getByRole("status")).toContainText("Sealing");
  await expect(panel.getByTestId("sealing-error")).toHaveText(`The previous attempt failed: ${ERROR}`);
  await expect(panel.getByRole("button", { name: "Retry sealing" })).toHaveCount(0);
  expect(retried).toBe(1);
});

test("the Overview lists packages whose sealing stopped or keeps failing, and nothing when all is well", async ({ page }) => {
  await signInAsOwner(page);
  const problems = (url: URL) => url.pathname === "/api/app/sealing/problems";
  await page.route(problems, (route) =>
    route.fulfill({
      json: {
        data: {
          total: 3,
          failed: 2,
          items: [
            {
              id: packageId,
              title: "Supply contract — Northwind",
              state: "FAILED",
              attempts: 8,
              lastError: ERROR,
              failedAt: new Date().toISOString(),
              nextAttemptAt: null,
            },
            {
              id: "pkg_example_2",
              title: "Lease 4B — Rue de la Paix",
              state: "FAILED",
              attempts: 1,
              lastError: "Encrypted PDFs cannot be sealed",
              failedAt: new Date().toISOString(),
              nextAttemptAt: null,
            },
            {
              id: "pkg_example_3",
              title: "NDA — Contoso",
              state: "RETRYING",
              attempts: 3,
              lastError: "The original of “nda.pdf” is missing from storage",
              failedAt: null,
              nextAttemptAt: new Date(Date.now() + 240_000).toISOString(),
            },
          ],
        },
      },
    }),
  );
  await page.goto("/");
  const alert = page.getByTestId("sealing-problems");
  await expect(alert.getByRole("alert")).toContainText("Sealing stopped for 2 packages; failing for 1 more, retrying automatically");
  await expect(alert.getByRole("link", { name: "Supply contract — Northwind" })).toHaveAttribute("href", `/packages/${packageId}`);
  await expect(alert).toContainText("stopped after 8 attempts");
  await expect(alert).toContainText("3 failed attempts");
  await expectAccessible(page);
  await screenshotBoth(page, "overview-sealing-problems");

  // The real answer: nothing is failing on this instance, so the Overview shows no alert.
  await page.unroute(problems);
  const real = page.waitForResponse((res) => problems(new URL(res.url())));
  await page.reload();
  expect(((await (await real).json()) as { data: { total: number } }).data.total).toBe(0);
  await expect(page.getByRole("heading", { name: "Awaiting signature" })).toBeVisible();
  await expect(page.getByTestId("sealing-problems")).toHaveCount(0);
});
