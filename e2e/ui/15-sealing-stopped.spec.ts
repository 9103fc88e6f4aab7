/**
 * A seal that keeps failing must be visible and, once it stops, retryable (issue 24 item 4): the package page
 * says sealing stopped, after how many attempts and why, and offers "Retry sealing"; the Overview lists the
 * packages whose sealing stopped or keeps failing. No real operation makes sealing fail on a healthy instance
 * (the upload check now refuses what the sealer cannot take; the server side — attempts bounded, FAILED on GET,
 * the audit event, the retry and its gates, the overview's list — is proven in vitest,
 * server/domain/sealing/seal-attempts.test.ts), so these tests take a real sent package and change only the
 * answers that carry the sealing state. Screenshots at desktop and 390 px.
 */
import { expect, test, type Page } from "@playwright/test";
import { createApiKey } from "../support/api-key";
import { expectAxeClean } from "../support/axe";
import { activeTemplate, keyApi } from "../support/key-api";
import { signInAsOwner } from "../support/owner";
import { failOnPageErrors } from "../support/page-errors";
import { titledPdf } from "../support/pdf";
import { screenshotBoth } from "../support/screenshot";

test.describe.configure({ mode: "serial" });

failOnPageErrors();

let key = "";
let packageId = "";
const ERROR = "Maximum call stack size exceeded";

const expectAccessible = (page: Page) => expectAxeClean(page, page.url(), "serious");

test("set up: a sent package (a template with one role and a signature field)", async ({ page, request }) => {
  await signInAsOwner(page);
  key = await createApiKey(page, "Sealing e2e", "Admin");
  const api = keyApi(request, key);
  const templateId = await activeTemplate(api, request, {
    name: "Supply contract",
    documentName: "contract.pdf",
    pdf: await titledPdf([["Supply contract"]]),
    roles: ["Buyer"],
    fields: [{ roleIndex: 0, type: "signature", page: 1, x: 56, y: 600, width: 200, height: 50 }],
  });
  const pkg = await api.post<{ id: string }>("/packages/from-template", {
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
  // A handler still answering (the page may poll again) must finish before the test ends: it fails the next test.
  await page.unrouteAll({ behavior: "wait" });
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
