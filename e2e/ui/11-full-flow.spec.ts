/**
 * The whole recipient's side joined up, against the built app with no SMTP_URL (the outbox transport) and a
 * local webhook receiver on 127.0.0.1 (issue 12, "Tests"). Self-sufficient: it signs in (running first-run
 * setup when alone), makes its own API key, template and webhook endpoint through the API.
 *   template made through the API → a package with two recipients in order (@example.com), sent →
 *   recipient one's invitation is opened from the Mail outbox page (its link clicked) → recipient one draws a
 *   signature and finishes → only then does recipient two's invitation appear in the outbox → recipient two
 *   types a non-Latin signature → PACKAGE_COMPLETED reaches the receiver → the merged PDF downloaded through
 *   the API passes pdfsig and qpdf --check, has the documents' pages plus the certificate's and the typed names
 *   in pdftotext; the zip holds the document and the certificate; one changed byte makes pdfsig fail and /verify
 *   (uploaded in the browser) say it is not valid. The completed mail's link opens the recipient's download.
 * Screenshots of the new states at desktop and 390 px. Waits are Playwright's polling expectations.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { createApiKey } from "../support/api-key";
import { activeTemplate, keyApi, signatureAndTextPerRole } from "../support/key-api";
import { signInAsOwner } from "../support/owner";
import { failOnPageErrors } from "../support/page-errors";
import { titledPdf } from "../support/pdf";
import { screenshotBoth } from "../support/screenshot";
import { consent } from "../support/signing";

// The flow test drives two recipients through the browser: on a busy two-core machine it nears the default 60 s.
test.describe.configure({ mode: "serial", timeout: 150_000 });

failOnPageErrors();

const dir = mkdtempSync(path.join(tmpdir(), "foliosign-e2e-flow-"));
const receiver = { events: [] as { event: string; data: Record<string, unknown> }[], url: "", server: undefined as http.Server | undefined };

test.beforeAll(async () => {
  receiver.server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      try {
        receiver.events.push(JSON.parse(Buffer.concat(chunks).toString("utf8")) as { event: string; data: Record<string, unknown> });
      } catch {
        // not an event: ignored
      }
      res.writeHead(200, { "content-type": "text/plain" }).end("ok");
    });
  });
  await new Promise<void>((resolve) => receiver.server!.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(receiver.server!.address() as AddressInfo).port}/full-flow`;
});

test.afterAll(async () => {
  receiver.server?.closeAllConnections();
  await new Promise<void>((resolve) => (receiver.server ? receiver.server.close(() => resolve()) : resolve()));
  rmSync(dir, { recursive: true, force: true });
});

let key = "";
const RUN = Date.now().toString(36);
const TITLE = `Full flow agreement ${RUN}`;
const ONE = { email: `una.${RUN}@example.com`, name: "Una First" };
const TWO = { email: `dmitri.${RUN}@example.com`, name: "Dmitri Second" };
const TYPED = "Дмитрий Иванов";
const COMPANY = "Acme Контрагент";

type TPackage = { id: string; status: string; recipientSessions: { id: string; status: string }[] };

const api = (request: APIRequestContext) => keyApi(request, key);

/** An API answer's bytes written to the run's folder (for pdfsig, qpdf, unzip); returns the file's path. */
async function saved(request: APIRequestContext, p: string, name: string): Promise<string> {
  const file = path.join(dir, name);
  writeFileSync(file, await api(request).bytes(p));
  return file;
}

function tool(cmd: string, args: string[]): { code: number; out: string } {
  try {
    return { code: 0, out: execFileSync(cmd, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }) };
  } catch (error) {
    const e = error as { status?: number; stdout?: string; stderr?: string };
    return { code: e.status ?? 1, out: `${e.stdout ?? ""}${e.stderr ?? ""}` };
  }
}
const pageCount = (file: string) => Number(/Pages:\s+(\d+)/.exec(tool("pdfinfo", [file]).out)?.[1]);

/** The outbox row of this package's message to `email` of `kind` ("Invitation", …), polled until it appears. */
function outboxRow(page: Page, email: string, subject: RegExp) {
  return page.getByRole("table", { name: "Messages" }).getByRole("row").filter({ hasText: email }).filter({ hasText: subject });
}

/** Opens a message from the Mail page and clicks its link to `/sign/…`; returns the link's path. */
async function followFromOutbox(page: Page, email: string, subject: RegExp): Promise<string> {
  await page.goto("/mail");
  const row = outboxRow(page, email, subject);
  await expect(async () => {
    await page.reload();
    await expect(row).toHaveCount(1, { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await row.getByRole("link").first().click();
  const link = page
    .getByRole("list", { name: "Links in this message" })
    .getByRole("link", { name: /\/sign\// })
    .first();
  await expect(link).toBeVisible();
  const href = new URL((await link.getAttribute("href"))!).pathname;
  await link.click();
  await expect(page).toHaveURL(new RegExp(`${href}$`));
  return href;
}

let pkg: TPackage;
let firstLink = "";

test("set up through the API: a key, a template with two roles, a webhook endpoint for PACKAGE_COMPLETED", async ({ page, request }) => {
  await signInAsOwner(page);
  key = await createApiKey(page, "Full flow e2e", "Admin");

  const a = api(request);
  await a.post("/webhooks", { url: receiver.url, events: ["PACKAGE_COMPLETED"], description: "Full flow e2e" });
  const templateId = await activeTemplate(a, request, {
    name: `Supply agreement ${RUN}`,
    documentName: "supply-agreement.pdf",
    pdf: await titledPdf(
      ["Supply agreement — terms", "Supply agreement — signatures"].map((title) => [title, "The buyer and the supplier agree to the terms of this agreement."]),
    ),
    roles: ["Buyer", "Supplier"],
    fields: signatureAndTextPerRole(2, ["Buyer city", "Supplier company"], { signatureY: 560, signatureHeight: 50, textY: 640 }),
  });
  pkg = await a.post<TPackage>("/packages/from-template", {
    templateId,
    title: TITLE,
    status: "sent",
    recipients: [
      { ...ONE, roleIndex: 0 },
      { ...TWO, roleIndex: 1 },
    ],
  });
  expect(pkg.status).toBe("IN_PROGRESS");
});

test("recipient one opens the invitation from the outbox, draws and finishes; only then is recipient two invited", async ({ page }) => {
  await signInAsOwner(page);
  firstLink = await followFromOutbox(page, ONE.email, /invites you to sign/);
  // Recipient two's invitation is not there yet: their turn has not come.
  await page.goto("/mail");
  await expect(outboxRow(page, ONE.email, /invites you to sign/)).toHaveCount(1);
  await expect(outboxRow(page, TWO.email, /invites you to sign/)).toHaveCount(0);
  await screenshotBoth(page, "full-flow-outbox-first");

  await page.goto(firstLink);
  await consent(page);
  await page.getByRole("button", { name: /^Signature \(required\): / }).click();
  const dialog = page.getByRole("dialog", { name: "Add your signature" });
  const pad = dialog.getByRole("img", { name: /Draw your signature/ });
  const box = (await pad.boundingBox())!;
  await page.mouse.move(box.x + 30, box.y + box.height * 0.7);
  await page.mouse.down();
  for (let i = 1; i <= 12; i++) await page.mouse.move(box.x + 30 + i * 20, box.y + box.height * (0.7 - 0.4 * Math.abs(Math.sin(i / 2))), { steps: 3 });
  await page.mouse.up();
  await dialog.getByRole("button", { name: "Use this signature" }).click();
  await expect(dialog).toBeHidden();
  await page.getByLabel("Buyer city (required)").fill("Lyon");
  await page.getByLabel("Buyer city (required)").press("Tab");
  await expect(page.getByText("2 of 2")).toBeVisible();
  await page.getByRole("button", { name: "Finish" }).click();
  await expect(page.getByRole("heading", { name: "You're done — thank you" })).toBeVisible();

  // Now recipient two's invitation appears in the outbox; followed from there, on a phone, a typed Cyrillic name.
  const second = await followFromOutbox(page, TWO.email, /invites you to sign/);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(second);
  await consent(page);
  await page.getByRole("button", { name: /^Signature \(required\): / }).click();
  const dialog2 = page.getByRole("dialog", { name: "Add your signature" });
  await dialog2.getByRole("button", { name: "Type" }).click();
  await dialog2.getByLabel("Type your signature").fill(TYPED);
  await expect(dialog2.locator("[data-typed-preview]")).toHaveText(TYPED);
  await dialog2.getByRole("button", { name: "Use this signature" }).click();
  await expect(dialog2).toBeHidden();
  await page.getByLabel("Supplier company (required)").fill(COMPANY);
  await page.getByLabel("Supplier company (required)").press("Tab");
  await expect(page.getByText("2 of 2")).toBeVisible();
  await page.getByRole("button", { name: "Finish" }).click();
  await expect(page.getByRole("heading", { name: "Everyone has signed" })).toBeVisible();
  await page.setViewportSize({ width: 1280, height: 800 });
});

test("PACKAGE_COMPLETED reaches the receiver; the merged PDF and the zip verify; one changed byte is caught", async ({ page, request }) => {
  await expect.poll(() => receiver.events.some((e) => e.event === "PACKAGE_COMPLETED" && e.data.packageId === pkg.id), { timeout: 60_000 }).toBe(true);
  const a = api(request);
  expect((await a.get<TPackage>(`/packages/${pkg.id}`)).status).toBe("COMPLETED");

  const merged = await saved(request, `/packages/${pkg.id}/download`, "merged.pdf");
  expect(tool("pdfsig", [merged]).out).toMatch(/Signature Validation: Signature is Valid/);
  expect(tool("qpdf", ["--check", merged]).code).toBe(0);
  const certificate = await saved(request, `/packages/${pkg.id}/certificate`, "certificate.pdf");
  expect(pageCount(merged)).toBe(2 + pageCount(certificate));
  const text = tool("pdftotext", ["-enc", "UTF-8", merged, "-"]).out;
  for (const s of [TYPED, COMPANY, ONE.name, TWO.name, "Lyon"]) expect(text).toContain(s);

  const zip = await saved(request, `/packages/${pkg.id}/download/zip`, "package.zip");
  const listing = execFileSync("unzip", ["-Z1", zip], { encoding: "utf8" }).trim().split("\n").sort();
  expect(listing).toEqual(["certificate.pdf", "supply-agreement.pdf"]);

  const bytes = readFileSync(merged);
  const range = /\/ByteRange\s*\[\s*0\s+(\d+)/.exec(bytes.toString("latin1"));
  const at = Math.floor(Number(range![1]) / 2);
  const changed = Buffer.from(bytes);
  changed[at] = changed[at]! ^ 0x01;
  const changedFile = path.join(dir, "changed.pdf");
  writeFileSync(changedFile, changed);
  expect(tool("pdfsig", [changedFile]).out).not.toMatch(/Signature Validation: Signature is Valid/);

  await page.goto("/verify");
  await page.getByLabel("PDF file").setInputFiles({ name: "changed.pdf", mimeType: "application/pdf", buffer: changed });
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByText("Not valid")).toBeVisible();
  await expect(page.getByText("This file was changed after it was sealed.")).toBeVisible();
  await screenshotBoth(page, "full-flow-verify-altered");
  await page.getByLabel("PDF file").setInputFiles({ name: "merged.pdf", mimeType: "application/pdf", buffer: bytes });
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByText("Valid: sealed by this instance and unchanged")).toBeVisible();
});

test("the completed mail reaches both recipients and the owner; its link offers the signed PDF", async ({ page }) => {
  await signInAsOwner(page);
  const link = await followFromOutbox(page, ONE.email, /Completed: “/);
  // The same link as the invitation: the recipient's own token, now opening the download.
  expect(link).toBe(firstLink);
  await expect(page.getByRole("heading", { name: "Everyone has signed" })).toBeVisible();
  const download = page.getByRole("link", { name: "Download the signed PDF" });
  await expect(download).toBeVisible();
  await screenshotBoth(page, "full-flow-signed-copy");
  const res = await page.request.get((await download.getAttribute("href"))!);
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toBe("application/pdf");
  const file = path.join(dir, "recipient-copy.pdf");
  writeFileSync(file, await res.body());
  expect(tool("pdfsig", [file]).out).toMatch(/Signature Validation: Signature is Valid/);

  await page.goto("/mail");
  await expect(outboxRow(page, TWO.email, /Completed: “/)).toHaveCount(1);
  await expect(
    page
      .getByRole("table", { name: "Messages" })
      .getByRole("row")
      .filter({ hasText: `Completed: “${TITLE}”` }),
  ).toHaveCount(3);
});
