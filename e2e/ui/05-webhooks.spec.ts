/**
 * Webhook health in the browser, end to end against the built app and a local receiver on 127.0.0.1 (the e2e
 * server allows loopback targets). The receiver is told to answer 200, 500, slowly or with a redirect. It
 * protects: the secret shown once at creation; a test event becoming DELIVERED with the receiver's status
 * and body without a reload; the signature debugger's "match" for the right digest (computed here from the
 * secret shown at creation) and the named mismatch for a wrong one; Failing after 10 consecutive failures on
 * the endpoint page, the dashboard and the Overview; Resume clearing the counter; Pause ending queued
 * deliveries as EXHAUSTED; Replay re-sending the SAME delivery id and recording who replayed it; a redirect
 * and a slow answer as the attempt shows them; rotation and deletion behind confirmations.
 * Waits are Playwright's polling expectations; nothing sleeps.
 */
import { createHmac } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Page } from "@playwright/test";
import { signInAsOwner } from "../support/owner";
import { failOnPageErrors } from "../support/page-errors";
import { screenshot, screenshotBoth } from "../support/screenshot";

test.describe.configure({ mode: "serial" });

type TMode = "ok" | "fail" | "slow" | "redirect";
type TReceived = { headers: http.IncomingHttpHeaders; body: string };

const receiver = { mode: "ok" as TMode, received: [] as TReceived[], url: "", server: undefined as http.Server | undefined };
let secret = "";
let endpointPath = "";

test.beforeAll(async () => {
  receiver.server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      receiver.received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      const mode = receiver.mode;
      if (mode === "fail") res.writeHead(500, { "content-type": "text/plain" }).end("receiver is down");
      else if (mode === "redirect") res.writeHead(302, { location: "https://elsewhere.example/hook" }).end("moved");
      else if (mode === "slow") setTimeout(() => res.writeHead(200).end("slow but ok"), 1500);
      else res.writeHead(200, { "content-type": "text/plain" }).end("received ok");
    });
  });
  await new Promise<void>((resolve) => receiver.server!.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(receiver.server!.address() as AddressInfo).port}/foliosign`;
});

test.afterAll(async () => {
  receiver.server?.closeAllConnections();
  await new Promise<void>((resolve) => (receiver.server ? receiver.server.close(() => resolve()) : resolve()));
});

// A script error in the page (e.g. a crashed effect) fails the test instead of surfacing as a missing element.
failOnPageErrors();

test.beforeEach(async ({ page }) => {
  await signInAsOwner(page);
});

const lastReceived = () => receiver.received[receiver.received.length - 1]!;

async function sendTestEvent(page: Page, event = "PACKAGE_SENT") {
  await page.getByLabel("Test event").selectOption(event);
  const button = page.getByRole("button", { name: "Send test event" });
  await button.click();
  await expect(page.getByText(/queued as whd_/)).toBeVisible();
  await expect(button).toBeEnabled();
}

test("the dashboard starts empty, creation vets the URL, and the secret is shown once", async ({ page }) => {
  await page.goto("/webhooks");
  await expect(page.getByRole("heading", { name: "Webhooks", level: 1 })).toBeVisible();
  await expect(page.getByText("No webhook endpoints yet")).toBeVisible();
  await expect(page.getByRole("link", { name: /how webhooks work/ })).toHaveAttribute("href", "/api-reference/webhooks");
  await expect(page.getByTestId("workspace-switcher")).toBeVisible();
  await screenshot(page, "webhooks-empty");

  await page.getByRole("button", { name: "Add endpoint" }).click();
  const dialog = page.getByRole("dialog", { name: "Add a webhook endpoint" });
  // This server runs with WEBHOOK_ALLOW_PRIVATE_TARGETS=true (playwright.config.ts): the hint says what it accepts
  // (it used to say loopback addresses are refused, and the receiver below is one).
  const hint = dialog.getByText(/^The address of your server/);
  await expect(hint).toHaveText(
    "The address of your server. This instance runs with WEBHOOK_ALLOW_PRIVATE_TARGETS=true (development only): http:// and private or loopback addresses such as http://localhost are accepted.",
  );
  await expect(dialog.getByText("Private and loopback addresses are refused.", { exact: false })).toHaveCount(0);
  await screenshotBoth(page, "webhooks-create-dialog-hint");
  await dialog.getByLabel("Endpoint URL").fill("ftp://files.example.com/hook");
  await dialog.getByRole("button", { name: "Add endpoint" }).click();
  await expect(dialog.getByLabel("Endpoint URL")).toHaveAttribute("aria-invalid", "true");
  await expect(dialog.getByText(/https/).first()).toBeVisible();
  await screenshot(page, "webhooks-create-dialog-error");

  await dialog.getByLabel("Endpoint URL").fill(receiver.url);
  await dialog.getByLabel("Description").fill("CRM sync");
  await dialog.getByRole("button", { name: "Add endpoint" }).click();
  const once = page.getByRole("dialog", { name: "Endpoint added" });
  await expect(once).toBeVisible();
  secret = await once.getByTestId("signing-secret").inputValue();
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
  await screenshot(page, "webhooks-secret-once");
  await once.getByRole("button", { name: "I have stored the secret" }).click();
  await expect(once).toBeHidden();

  const row = page.getByTestId("endpoint-row");
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(receiver.url);
  await expect(row).toContainText("Active");
  await page.reload();
  await expect(page.getByTestId("endpoint-row")).toContainText("CRM sync");
  await expect(page.getByText(secret)).toHaveCount(0);
  await expect(page.locator(`input[value="${secret}"]`)).toHaveCount(0);
  await screenshot(page, "webhooks-dashboard");
  endpointPath = (await row.getByRole("link").first().getAttribute("href"))!;
  expect(endpointPath).toMatch(/^\/webhooks\/whep_/);
});

test("a test event becomes DELIVERED without a reload; the signature debugger matches and names a mismatch", async ({ page }) => {
  receiver.mode = "ok";
  await page.goto(endpointPath);
  await expect(page.getByText("No deliveries yet")).toBeVisible();
  await sendTestEvent(page, "SESSION_COMPLETED");

  const row = page.getByTestId("delivery-row").first();
  await expect(row).toContainText("DELIVERED");
  await expect(row).toContainText("200");
  const sent = lastReceived();
  expect(JSON.parse(sent.body)).toMatchObject({ event: "SESSION_COMPLETED", test: true });
  const deliveryId = sent.headers["x-foliosign-delivery-id"] as string;
  await expect(row).toContainText(deliveryId);

  const detail = page.locator("section").filter({ has: page.getByRole("heading", { name: `Delivery ${deliveryId}` }) });
  await expect(detail.getByTestId("attempt")).toContainText("HTTP 200");
  await expect(detail.getByLabel("Response body of attempt 1")).toHaveText("received ok");
  await expect(detail.getByLabel("Request headers")).toContainText(sent.headers["x-foliosign-signature"] as string);
  const ts = sent.headers["x-foliosign-timestamp"] as string;
  await expect(detail.getByTestId("signed-string")).toHaveText(`${ts}.${sent.body}`);
  // Also at 390 px: the heading "Delivery whd_…" and the "queued as whd_…" note (long ids) wrap instead of
  // widening the page (it was 487 px wide, newcomer audit #6); screenshotBoth fails when scrollWidth > 390.
  await screenshotBoth(page, "webhook-endpoint-delivered");

  const digest = createHmac("sha256", secret).update(`${ts}.${sent.body}`).digest("hex");
  const box = detail.getByLabel(/Digest your receiver computed/);
  await box.fill(digest);
  await detail.getByRole("button", { name: "Check" }).click();
  await expect(detail.getByRole("status").filter({ hasText: "Match" })).toBeVisible();
  await screenshot(page, "webhook-signature-match");

  await box.fill(createHmac("sha256", secret).update(sent.body).digest("hex"));
  await detail.getByRole("button", { name: "Check" }).click();
  await expect(detail.getByRole("alert").filter({ hasText: "The timestamp differs" })).toBeVisible();
  await box.fill(createHmac("sha256", "whsec_not-the-secret").update(`${ts}.${sent.body}`).digest("hex"));
  await detail.getByRole("button", { name: "Check" }).click();
  await expect(detail.getByRole("alert").filter({ hasText: "cannot tell which input differs" })).toBeVisible();
  await screenshot(page, "webhook-signature-mismatch");
});

test("ten failed attempts make the endpoint Failing on its page, the dashboard and the Overview", async ({ page }) => {
  receiver.mode = "fail";
  await page.goto(endpointPath);
  for (let i = 0; i < 10; i++) await sendTestEvent(page);
  await expect(page.getByTestId("endpoint-state")).toHaveText("Failing");
  await expect(page.getByText("This endpoint is Failing")).toBeVisible();
  await expect(page.getByTestId("delivery-row").first()).toContainText("FAILED");
  await screenshot(page, "webhook-endpoint-failing");

  await page.goto("/webhooks");
  await expect(page.getByTestId("endpoint-row")).toContainText("Failing");
  await expect(page.getByTestId("endpoint-row")).toContainText("Fix the receiver, send a test event, then Resume");
  await screenshot(page, "webhooks-dashboard-failing");

  await page.goto("/");
  await expect(page.getByTestId("overview-failing")).toHaveText("1");
  await expect(page.getByText("1 Failing endpoint")).toBeVisible();
  await screenshot(page, "overview-webhook-health");
});

test("resume clears the counter; pause ends queued deliveries as EXHAUSTED; replay re-sends the same id", async ({ page }) => {
  await page.goto(endpointPath);
  // The receiver is fixed and a test event succeeds: the counter is reset, but the endpoint stays Failing
  // (new events still skip it) until it is resumed — the page must not pretend it is Active.
  receiver.mode = "ok";
  await sendTestEvent(page);
  await expect(page.getByTestId("delivery-row").first()).toContainText("DELIVERED");
  await expect(page.getByTestId("consecutive-failures")).toHaveText("0");
  await expect(page.getByTestId("endpoint-state")).toHaveText("Failing");
  receiver.mode = "fail";
  await page.getByRole("button", { name: "Resume" }).click();
  await expect(page.getByText(/Resumed\. The failure counter was cleared/)).toBeVisible();
  await expect(page.getByTestId("endpoint-state")).toHaveText("Active");
  await expect(page.getByTestId("consecutive-failures")).toHaveText("0");
  await screenshot(page, "webhook-resumed");

  // The ten failed deliveries wait for their retry (a minute away): pausing drops them.
  await page.getByRole("button", { name: "Pause", exact: true }).click();
  await expect(page.getByRole("dialog", { name: "Pause this endpoint?" })).toBeVisible();
  await screenshot(page, "webhook-pause-confirm");
  await page.getByRole("button", { name: "Pause endpoint" }).click();
  await expect(page.getByTestId("endpoint-state")).toHaveText("Paused");
  await page.getByLabel("Status").selectOption("EXHAUSTED");
  await expect(page.getByTestId("delivery-row")).toHaveCount(10);
  await expect(page.getByTestId("delivery-row").first()).toContainText("EXHAUSTED");
  await screenshot(page, "webhook-paused-exhausted");

  receiver.mode = "ok";
  await page.getByRole("button", { name: "Resume" }).click();
  await expect(page.getByTestId("endpoint-state")).toHaveText("Active");
  const first = page.getByTestId("delivery-row").first();
  const deliveryId = (await first.getByRole("button").textContent())!;
  await first.getByRole("button").click();
  const detail = page.locator("section").filter({ has: page.getByRole("heading", { name: `Delivery ${deliveryId}` }) });
  await expect(detail.getByText("Ended: endpoint paused")).toBeVisible();
  const before = receiver.received.filter((r) => r.headers["x-foliosign-delivery-id"] === deliveryId).length;
  await detail.getByRole("button", { name: "Replay" }).click();
  await page.getByRole("button", { name: "Replay delivery" }).click();
  await expect.poll(() => receiver.received.filter((r) => r.headers["x-foliosign-delivery-id"] === deliveryId).length).toBe(before + 1);
  await expect(detail.getByTestId("delivery-summary")).toContainText("DELIVERED");
  await expect(detail.getByTestId("delivery-summary")).toContainText("by Olivia Owner");
  await expect(detail.getByText("(after replay)")).toBeVisible();
  await page.getByLabel("Status").selectOption("");
  await expect(page.getByTestId("delivery-row").filter({ hasText: deliveryId })).toContainText("Replayed by Olivia Owner");
  await screenshot(page, "webhook-replayed");
});

test("a redirect is a failed attempt, a slow answer shows its duration, and the chart has a 7-day view", async ({ page }) => {
  await page.goto(endpointPath);
  receiver.mode = "redirect";
  await sendTestEvent(page);
  const detail = page.locator("section").filter({ has: page.getByRole("heading", { name: /^Delivery whd_/ }) });
  await expect(detail.getByTestId("attempt").first()).toContainText("HTTP 302");
  await expect(detail.getByTestId("delivery-summary")).toContainText("FAILED");
  await expect(detail.getByTestId("delivery-summary")).toContainText("Next attempt");
  await screenshot(page, "webhook-redirect-failed");

  receiver.mode = "slow";
  await sendTestEvent(page, "PACKAGE_COMPLETED");
  await expect(detail.getByTestId("attempt").first()).toContainText("HTTP 200");
  await expect(detail.getByTestId("attempt").first()).toContainText(/[12]\.\d s/);

  await page.getByRole("button", { name: "7 days" }).click();
  await expect(page.getByRole("img", { name: /over the last 7 days/ })).toBeVisible();
  await screenshot(page, "webhook-endpoint-chart-7d");
});

test("rotating shows the new secret once and until when the old one signs; delete names the URL", async ({ page }) => {
  receiver.mode = "ok";
  await page.goto(endpointPath);
  await page.getByRole("button", { name: "Rotate secret" }).click();
  await page.getByRole("button", { name: "Rotate secret" }).last().click();
  const once = page.getByRole("dialog", { name: "New signing secret" });
  await expect(once).toBeVisible();
  const rotated = await once.getByTestId("signing-secret").inputValue();
  expect(rotated).not.toBe(secret);
  await expect(once.getByText(/The old secret keeps signing beside the new one until/)).toBeVisible();
  await screenshot(page, "webhook-rotated-secret");
  await once.getByRole("button", { name: "I have stored the secret" }).click();
  await expect(page.getByTestId("previous-secret")).toBeVisible();

  await page.getByRole("button", { name: "Delete", exact: true }).click();
  const confirm = page.getByRole("dialog", { name: "Delete this endpoint?" });
  await expect(confirm).toContainText(receiver.url);
  await screenshot(page, "webhook-delete-confirm");
  await confirm.getByRole("button", { name: "Delete endpoint" }).click();
  await expect(page).toHaveURL(/\/webhooks$/);
  await expect(page.getByText("No webhook endpoints yet")).toBeVisible();
  await page.goto(endpointPath);
  await expect(page.getByText(/could not be found|404/i).first()).toBeVisible();
});
