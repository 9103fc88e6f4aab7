/**
 * Settings → Readiness (issue 23, item 5) in a real browser, on a second app whose SMTP_URL is a real SMTP server
 * on loopback (app-with-smtp.ts) and whose DNS probe is `localhost` (READINESS_DNS_PROBE_HOST: answered from
 * /etc/hosts, so nothing is asked beyond this machine). The owner sees one card per check with its verdict and
 * what to do — PUBLIC_URL on 127.0.0.1 is a warning that shows what signing links look like, no TSA is a
 * warning, the database, the sealing identity and storage are OK — and "Send a test message" sends one real
 * message, received by the SMTP server, only when pressed. Axe-clean at 1280 and 390 px; screenshots
 * readiness, readiness-390, readiness-sent.
 */
import { expect, test } from "@playwright/test";
import { startAppWithSmtp, type TAppWithSmtp } from "../support/app-with-smtp";
import { expectAxeClean } from "../support/axe";
import { OWNER, signInAsOwner } from "../support/owner";
import { failOnPageErrors } from "../support/page-errors";
import { screenshot, screenshotBoth } from "../support/screenshot";

const PORT = Number(process.env.E2E_PORT ?? 3100) + 70;
test.use({ baseURL: `http://127.0.0.1:${PORT}` });
test.describe.configure({ mode: "serial", timeout: 180_000 });

failOnPageErrors();

let app: TAppWithSmtp;
test.beforeAll(async () => {
  app = await startAppWithSmtp(PORT, { READINESS_DNS_PROBE_HOST: "localhost" });
});
test.afterAll(async () => {
  await app?.stop();
});

const card = (page: import("@playwright/test").Page, title: string) =>
  page.locator("section").filter({ has: page.getByRole("heading", { level: 2, name: title, exact: true }) });

test("the owner's Readiness page: every check with its verdict, a test message only on request", async ({ page }) => {
  await signInAsOwner(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Readiness" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Readiness" })).toBeVisible();
  const titles = ["Database", "Public URL", "Mail (SMTP)", "Sealing identity", "Time-stamping authority", "File storage", "Webhook egress", "Backups"];
  await expect(page.getByRole("heading", { level: 2 })).toHaveText(titles);

  await expect(card(page, "Database")).toContainText("OK");
  await expect(card(page, "Database")).toContainText(/The database answers and all \d+ migrations are applied\./);
  await expect(card(page, "Public URL")).toContainText("Warning");
  await expect(card(page, "Public URL")).toContainText(`http://127.0.0.1:${PORT}/sign/<token>`);
  await expect(card(page, "Mail (SMTP)")).toContainText("The SMTP server accepts the connection and the login.");
  await expect(card(page, "Sealing identity")).toContainText("EC P-256");
  await expect(card(page, "Time-stamping authority")).toContainText("No time-stamping authority is configured");
  await expect(card(page, "File storage")).toContainText("A probe file was written, read back intact and deleted.");
  await expect(card(page, "Webhook egress")).toContainText("DNS lookup of localhost");
  // A fresh embedded installation has no backup yet: a warning that says how to make one.
  await expect(card(page, "Backups")).toContainText("Warning");
  await expect(card(page, "Backups")).toContainText("No backup of this installation has been made.");
  // The command, written between backticks by the check, is shown as code.
  await expect(card(page, "Backups").locator("code")).toHaveText("npm run admin -- backup --out FILE");
  expect(app.sink.received).toEqual([]);

  await expectAxeClean(page, "readiness at 1280 px");
  await screenshotBoth(page, "readiness");
  await page.setViewportSize({ width: 390, height: 844 });
  await expectAxeClean(page, "readiness at 390 px");
  await page.setViewportSize({ width: 1280, height: 800 });

  await card(page, "Mail (SMTP)").getByRole("button", { name: "Send a test message" }).click();
  await expect(card(page, "Mail (SMTP)").getByText("Sent", { exact: true })).toBeVisible();
  await expect(card(page, "Mail (SMTP)")).toContainText(`The SMTP server accepted a test message to ${OWNER.email}`);
  await expect.poll(() => app.sink.received.map((m) => [m.to.join(), m.subject])).toEqual([[OWNER.email, "Foliosign test message"]]);
  await expectAxeClean(page, "readiness after the test message");
  await screenshot(page, "readiness-sent");
});
