/**
 * The packages pages end to end against the built app. An ACTIVE template is made through the app's internal
 * API (a one-page PDF built here with @libpdf/core is PUT to its upload URL; two roles, a signature for each,
 * a merge field and a sender question), then, in the pages: create a package from it (422 details next to the
 * fields first), send it, copy a signing link, hold, resume and void it — each behind its dialog — and find it
 * in the list by tab and search. Every state is screenshotted at desktop width and at 390 px.
 * Waits are Playwright's polling expectations; nothing sleeps.
 */
import { expect, test, type APIRequestContext } from "@playwright/test";
import { appRequest, type TAppRequest } from "../support/app-request";
import { signInAsOwner } from "../support/owner";
import { failOnPageErrors } from "../support/page-errors";
import { titledPdf } from "../support/pdf";
import { screenshot, screenshotBoth } from "../support/screenshot";

test.describe.configure({ mode: "serial" });

failOnPageErrors();

test.beforeEach(async ({ page }) => {
  await signInAsOwner(page);
});

const TEMPLATE = "Office lease (e2e packages)";
const TITLE = "Office lease — Unit 7";

const onePagePdf = () => titledPdf([["Office lease", "The tenant and the landlord sign below."]]);

async function ok<T>(res: Awaited<ReturnType<APIRequestContext["post"]>>): Promise<T> {
  expect(res.ok(), `${res.url()} answered ${res.status()}: ${await res.text()}`).toBe(true);
  return ((await res.json()) as { data: T }).data;
}

/** An ACTIVE template through /api/app (the session's cookie): PDF, two roles, their fields, a merge field, a question. */
async function createActiveTemplate(request: TAppRequest): Promise<string> {
  const base = "/api/app/templates";
  const tpl = await ok<{ id: string }>(await request.post(base, { data: { name: TEMPLATE, description: "Made by the packages e2e test" } }));
  const bytes = await onePagePdf();
  const added = await ok<{ document: { id: string }; uploadUrl: string }>(
    await request.post(`${base}/${tpl.id}/documents`, { data: { name: "office-lease.pdf", fileSize: bytes.length } }),
  );
  const put = await request.put(added.uploadUrl, { data: bytes, headers: { "content-type": "application/pdf" } });
  expect(put.ok(), `upload answered ${put.status()}: ${await put.text()}`).toBe(true);
  for (const [i, name] of ["Tenant", "Landlord"].entries()) {
    await ok(await request.post(`${base}/${tpl.id}/roles`, { data: { name } }));
    await ok(
      await request.post(`${base}/${tpl.id}/fields`, {
        data: { documentId: added.document.id, roleIndex: i, type: "signature", page: 1, x: 56 + i * 250, y: 600, width: 180, height: 48 },
      }),
    );
  }
  await ok(
    await request.patch(`${base}/${tpl.id}`, {
      data: {
        mergeFields: [{ key: "unit", label: "Unit", defaultValue: null }],
        questions: [{ key: "term", label: "Lease term", required: true }],
      },
    }),
  );
  await ok(await request.patch(`${base}/${tpl.id}`, { data: { status: "ACTIVE" } }));
  return tpl.id;
}

let packageUrl = "";

test("the list says how to start; the form shows the API's 422 details next to the fields, then creates a draft", async ({ page }) => {
  await page.goto("/packages");
  await expect(page.getByRole("heading", { name: "Packages", level: 1 })).toBeVisible();
  await expect(page.getByText("No packages yet")).toBeVisible();
  await screenshotBoth(page, "packages-empty");

  await createActiveTemplate(appRequest(page));
  await page.goto("/packages");
  await expect(page.getByRole("link", { name: "New package from template" })).toBeVisible();
  await page.getByRole("link", { name: "New package from template" }).click();
  await expect(page).toHaveURL(/\/packages\/new$/);
  await page.getByLabel("Template", { exact: true }).selectOption({ label: `${TEMPLATE} (2 roles)` });
  const form = page.getByRole("form", { name: "New package" });
  await expect(form.getByTestId("recipient-fields")).toHaveCount(2);
  await screenshotBoth(page, "package-new");

  // Nothing filled in: the server's dotted paths land on their fields.
  await form.getByLabel("Save as draft").check();
  await form.getByRole("button", { name: "Save draft" }).click();
  await expect(form.getByLabel("Email of Tenant")).toHaveAttribute("aria-invalid", "true");
  await expect(form.getByLabel("Email of Landlord")).toHaveAttribute("aria-invalid", "true");
  await expect(form.getByText("Enter a valid email address").first()).toBeVisible();
  await screenshotBoth(page, "package-new-errors");

  await form.getByLabel("Title").fill(TITLE);
  await form.getByLabel("Email of Tenant").fill("tara.tenant@example.com");
  await form.getByLabel("Name of Tenant").fill("Tara Tenant");
  await form.getByLabel("Email of Landlord").fill("lars.landlord@example.com");
  await form.getByLabel("Unit").fill("Unit 7");
  await form.getByLabel("Lease term").fill("24 months");
  await form.getByLabel("Remind recipients automatically").check();
  await form.getByLabel("First after (days)").fill("2");
  await form.getByRole("button", { name: "Save draft" }).click();

  await expect(page).toHaveURL(/\/packages\/pkg_/);
  packageUrl = new URL(page.url()).pathname;
  await expect(page.getByRole("heading", { name: TITLE, level: 1 })).toBeVisible();
  await expect(page.getByTestId("package-status")).toHaveText("Draft");
  const recipients = page.getByTestId("recipient-row");
  await expect(recipients).toHaveCount(2);
  await expect(recipients.nth(0)).toContainText("Tara Tenant");
  await expect(recipients.nth(1)).toContainText("lars.landlord@example.com");
  await expect(page.getByTestId("documents")).toContainText("office-lease.pdf");
  await expect(page.getByTestId("package-values")).toContainText("24 months");
  // Actions that do not fit a draft are disabled, with the reason.
  await expect(page.getByRole("button", { name: "Put on hold" })).toBeDisabled();
  await page.getByText("Why are some actions unavailable?").click();
  await expect(page.getByTestId("unavailable-reasons")).toContainText("Only a package in progress can be put on hold.");
  await expect(page.getByTestId("timeline-event").first()).toContainText("Created");
  await screenshotBoth(page, "package-draft");
});

test("send, signing link, hold, resume and void — each asks first", async ({ page }) => {
  await page.goto(packageUrl);
  const status = page.getByTestId("package-status");

  // Scheduling takes a local date-time (shown with the browser's zone); looked at, then cancelled.
  await page.getByRole("button", { name: "Schedule" }).click();
  let dialog = page.getByRole("dialog", { name: "Schedule this package" });
  await expect(dialog).toContainText("Europe/Paris");
  await dialog.getByLabel("Send at").fill("2020-01-01T09:00");
  await dialog.getByRole("button", { name: "Schedule" }).click();
  await expect(dialog.getByText("Choose a time in the future")).toBeVisible();
  await screenshot(page, "package-schedule-dialog");
  await dialog.getByRole("button", { name: "Cancel" }).click();

  await page.getByRole("button", { name: "Send now" }).click();
  dialog = page.getByRole("dialog", { name: "Send this package now?" });
  await expect(dialog).toBeVisible();
  await screenshot(page, "package-send-confirm");
  await dialog.getByRole("button", { name: "Send now" }).click();
  await expect(status).toHaveText("In progress");
  await expect(page.getByTestId("recipient-row").nth(0)).toContainText("Invited");
  await expect(page.getByTestId("recipient-row").nth(1)).toContainText("Waiting");
  await expect(page.getByTestId("package-dates")).toContainText("Sent");
  await expect(page.getByTestId("timeline-event").first()).toContainText("Sent");
  // Nothing to download yet; the mail panel is there (its rows are checked in 10-signing).
  await expect(page.getByTestId("package-files")).toContainText("Once every recipient has signed");
  await expect(page.getByTestId("package-mail")).toBeVisible();
  await screenshotBoth(page, "package-in-progress");

  // A reminder for one recipient, from their row.
  await page.getByTestId("recipient-row").nth(0).getByRole("button", { name: "Remind" }).click();
  dialog = page.getByRole("dialog", { name: "Send a reminder now?" });
  await expect(dialog.getByLabel("Who")).toHaveValue(/.+/);
  await dialog.getByRole("button", { name: "Send reminder" }).click();
  await expect(page.getByTestId("action-done")).toHaveText("Reminded 1 recipient.");
  await expect(page.getByTestId("timeline-event").first()).toContainText("Reminder sent");

  // The link for the recipient whose turn it is, shown once with its expiry.
  await page.getByTestId("recipient-row").nth(0).getByRole("button", { name: "Copy signing link" }).click();
  dialog = page.getByRole("dialog", { name: "Create a signing link?" });
  await expect(dialog).toContainText("Tara Tenant");
  await dialog.getByRole("button", { name: "Create link" }).click();
  dialog = page.getByRole("dialog", { name: "Signing link" });
  await expect(dialog.getByTestId("signing-url")).toHaveValue(/\/sign\/.+/);
  await expect(dialog).toContainText("Valid until");
  await screenshotBoth(page, "package-signing-link");
  await dialog.getByRole("button", { name: "Done" }).click();

  await page.getByRole("button", { name: "Put on hold" }).click();
  dialog = page.getByRole("dialog", { name: "Put this package on hold?" });
  await dialog.getByRole("button", { name: "Put on hold" }).click();
  await expect(status).toHaveText("On hold");
  await expect(page.getByRole("button", { name: "Resume" })).toBeEnabled();
  await screenshotBoth(page, "package-on-hold");

  await page.getByRole("button", { name: "Resume" }).click();
  dialog = page.getByRole("dialog", { name: "Resume this package?" });
  await dialog.getByRole("button", { name: "Resume" }).click();
  await expect(status).toHaveText("In progress");
  await expect(page.getByTestId("timeline-event").first()).toContainText("Resumed");

  // Someone else holds it while the dialog is open: the API's refusal is shown in the dialog, and the page
  // catches up with the package's real state.
  await page.getByRole("button", { name: "Put on hold" }).click();
  dialog = page.getByRole("dialog", { name: "Put this package on hold?" });
  const packageId = packageUrl.split("/").pop()!;
  expect((await appRequest(page).post(`/api/app/packages/${packageId}/hold`, { data: {} })).status()).toBe(200);
  await dialog.getByRole("button", { name: "Put on hold" }).click();
  await expect(dialog.getByRole("alert")).toContainText("Only IN_PROGRESS packages can be put on hold");
  await screenshot(page, "package-action-error");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(status).toHaveText("On hold");
  await page.getByRole("button", { name: "Resume" }).click();
  await page.getByRole("dialog", { name: "Resume this package?" }).getByRole("button", { name: "Resume" }).click();
  await expect(status).toHaveText("In progress");

  await page.getByRole("button", { name: "Void", exact: true }).click();
  dialog = page.getByRole("dialog", { name: "Void this package?" });
  await dialog.getByLabel("Reason").fill("The tenant chose another unit");
  await screenshot(page, "package-void-confirm");
  await dialog.getByRole("button", { name: "Void package" }).click();
  await expect(status).toHaveText("Void");
  await expect(page.getByTestId("timeline-event").first()).toContainText("Voided");
  await expect(page.getByTestId("timeline-event").first()).toContainText("The tenant chose another unit");
  await expect(page.getByTestId("recipient-row").nth(0)).toContainText("Cancelled");
  await expect(page.getByRole("button", { name: "Send now" })).toBeDisabled();
  await expect(page.getByRole("button", { name: "Void", exact: true })).toBeDisabled();
  await expect(page.getByTestId("package-files")).toContainText("This package ended before everyone signed");
  await screenshotBoth(page, "package-void");
});

test("the list: progress, owner, tabs and search", async ({ page }) => {
  await page.goto("/packages");
  const row = page.getByTestId("package-row").filter({ hasText: TITLE });
  await expect(row).toContainText("Void");
  await expect(row).toContainText("0 of 2 signed");
  await expect(row).toContainText("Olivia Owner");
  await screenshotBoth(page, "packages-list");

  await page.getByRole("tab", { name: "Void" }).click();
  await expect(page.getByTestId("package-row").filter({ hasText: TITLE })).toBeVisible();
  await page.getByRole("tab", { name: "In progress" }).click();
  await expect(page.getByText("No package matches")).toBeVisible();
  await page.getByRole("tab", { name: "All" }).click();
  await page.getByLabel("Search packages").fill("no such title");
  await expect(page.getByText("No package matches")).toBeVisible();
  await page.getByLabel("Search packages").fill("unit 7");
  await expect(page.getByTestId("package-row")).toHaveCount(1);
});
