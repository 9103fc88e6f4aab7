/**
 * Embedded signing (issue 23, item 3; docs/decisions/embedded-signing.md) in a real browser against the built app
 * on 127.0.0.1. The integrator's page is a tiny node server on `localhost` (another origin and another *site*, so
 * the embed cookie really is a third-party cookie here) that loads /embed/v1.js and mounts the URL its server got
 * from `POST /packages/{id}/signing-url` with `embed: { origin }`. The owner lists that origin on Settings →
 * Embedded signing (its 422 shown on the row); the recipient consents, signs and finishes inside the frame and
 * the host page receives ready, field-signed, completed — ids, never a token. A third origin (127.0.0.1 on
 * another port) cannot frame an embedded URL (the browser refuses it by frame-ancestors) and receives nothing;
 * an ordinary signing page cannot be framed by anyone. Screenshots at 1280 and 390 px; axe clean.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { createApiKey } from "../support/api-key";
import { expectAxeClean } from "../support/axe";
import { activeTemplate, keyApi, sentFromTemplate } from "../support/key-api";
import { signInAsOwner } from "../support/owner";
import { failOnPageErrors } from "../support/page-errors";
import { titledPdf } from "../support/pdf";
import { screenshotBoth } from "../support/screenshot";

test.describe.configure({ mode: "serial" });
failOnPageErrors();

const APP = `http://127.0.0.1:${process.env.E2E_PORT ?? 3100}`;
let key = "";
let templateId = "";
let host: { origin: string; close(): Promise<void> };
let third: { origin: string; close(): Promise<void> };

type TEvent = { type: string; packageId: string; sessionId: string; [k: string]: unknown };
type TPackage = { id: string; recipientSessions: { id: string }[] };

/** The integrator's page: mounts `?url=` with /embed/v1.js and lists the events it receives. */
function integratorPage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Acme Lettings — sign your lease</title>
<style>body{font-family:system-ui,sans-serif;margin:0;color:#18181b;background:#f4f4f5}header{background:#1e3a8a;color:#fff;padding:12px 16px}
main{max-width:960px;margin:0 auto;padding:16px}#signing{background:#fff;border:1px solid #d4d4d8;border-radius:8px;overflow:hidden}
h1{font-size:1.25rem;margin:0}h2{font-size:1rem}</style></head>
<body><header aria-label="Acme Lettings"><p><strong>Acme Lettings</strong></p></header><main aria-label="Acme Lettings: sign your lease"><h1>Sign your lease</h1><p>Your lease is ready: sign it below without leaving Acme.</p>
<div id="signing"></div><h2>Events received</h2><ol id="events" aria-live="polite"></ol></main>
<script src="${APP}/embed/v1.js"></script>
<script>
window.events = [];
Foliosign.mount(document.getElementById("signing"), {
  url: new URLSearchParams(location.search).get("url"),
  title: "Sign the lease",
  onEvent(event) {
    window.events.push(event);
    const li = document.createElement("li");
    li.textContent = event.type;
    document.getElementById("events").append(li);
  },
});
</script></body></html>`;
}

/** Another site that tries to frame an embedded URL directly and listens to every message. */
function thirdPage(): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Elsewhere</title></head><body><main><h1>Elsewhere</h1>
<iframe id="f" title="Stolen signing" width="800" height="600"></iframe></main>
<script>window.events = []; addEventListener("message", (e) => window.events.push(e.data));
document.getElementById("f").src = new URLSearchParams(location.search).get("url");</script></body></html>`;
}

async function serve(hostname: string, html: () => string): Promise<{ origin: string; close(): Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(html());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://${hostname}:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const api = (request: APIRequestContext) => keyApi(request, key);

async function sentPackage(request: APIRequestContext, title: string): Promise<TPackage> {
  return sentFromTemplate<TPackage>(api(request), templateId, title, [{ email: "tina@example.com", name: "Tina Tenant", roleIndex: 0 }]);
}

async function embedUrl(request: APIRequestContext, pkg: TPackage, origin: string): Promise<string> {
  return (await api(request).post<{ url: string }>(`/packages/${pkg.id}/signing-url`, { sessionId: pkg.recipientSessions[0]!.id, embed: { origin } })).url;
}

const events = (page: Page) => page.evaluate(() => (window as unknown as { events: TEvent[] }).events);

test.beforeAll(async () => {
  host = await serve("localhost", integratorPage);
  third = await serve("127.0.0.1", thirdPage);
});
test.afterAll(async () => {
  await host.close();
  await third.close();
});

test("set up: a key and a one-role template with a signature and a text field", async ({ page, request }) => {
  await signInAsOwner(page);
  key = await createApiKey(page, "Embedding e2e", "Admin");
  templateId = await activeTemplate(api(request), request, {
    name: "Lease",
    documentName: "lease.pdf",
    pdf: await titledPdf([["Lease — 4B Harbour Street", "The tenant agrees to the terms of this lease."]]),
    roles: ["Tenant"],
    fields: [
      { roleIndex: 0, type: "signature", page: 1, x: 56, y: 560, width: 200, height: 50 },
      { roleIndex: 0, type: "text", label: "Tenant phone", page: 1, x: 56, y: 640, width: 200, height: 24 },
    ],
  });
});

test("the owner lists the integrator's origin on Settings → Embedded signing; a wildcard is refused on its row", async ({ page, request }) => {
  await signInAsOwner(page);
  await page.goto("/settings/embedding");
  await expect(page.getByRole("heading", { name: "Embedded signing" })).toBeVisible();
  await expect(page.getByText("No origins: embedded signing is off.")).toBeVisible();
  await expectAxeClean(page, "embed origins, empty");
  await page.getByRole("button", { name: "Add origin" }).click();
  await page.getByLabel("Origin 1").fill("https://*.example.com");
  await expect(page.getByText("Wildcards are not allowed: list each origin")).toBeVisible();
  await page.getByRole("button", { name: "Add origin" }).click();
  await page.getByLabel("Origin 2").fill("https://app.example.com/embed");
  await expect(page.getByText("Only the scheme, host and port, exactly: https://app.example.com")).toBeVisible();
  await expect(page.getByRole("button", { name: "Save origins" })).toBeDisabled();
  await expectAxeClean(page, "embed origins, invalid rows");
  await screenshotBoth(page, "embed-origins-invalid");

  await page.getByLabel("Origin 1").fill(host.origin);
  await page.getByLabel("Origin 2").fill("https://app.example.com");
  await page.getByRole("button", { name: "Save origins" }).click();
  await expect(page.getByText("Embed origins saved.")).toBeVisible();
  await expectAxeClean(page, "embed origins, saved");
  await screenshotBoth(page, "embed-origins-saved");
  expect(await api(request).get<{ origins: string[] }>("/settings/embed-origins")).toEqual({ origins: ["https://app.example.com", host.origin].sort() });
  // An origin off the list: 422 at embed.origin.
  const pkg = await sentPackage(request, "Lease — off the list");
  const refused = await request.post(`/api/v1/packages/${pkg.id}/signing-url`, {
    headers: { authorization: `Bearer ${key}` },
    data: { sessionId: pkg.recipientSessions[0]!.id, embed: { origin: third.origin } },
  });
  expect(refused.status()).toBe(422);
  expect(((await refused.json()) as { details: unknown }).details).toEqual({
    "embed.origin": ["Not one of this workspace's embed origins (PUT /settings/embed-origins)"],
  });
});

test("the integrator's page embeds the signing, the recipient signs and finishes, and the page hears ready, field-signed and completed", async ({
  page,
  request,
  browser,
}) => {
  const pkg = await sentPackage(request, "Lease — 4B Harbour Street");
  const url = await embedUrl(request, pkg, host.origin);
  const token = url.split("/embed/sign/")[1]!;
  await page.goto(`${host.origin}/?url=${encodeURIComponent(url)}`);
  const frame = page.frameLocator("iframe[title='Sign the lease']");
  await expect(frame.getByRole("heading", { name: "Before you sign" })).toBeVisible();
  await expect.poll(() => events(page)).toEqual([{ type: "ready", state: "OPEN", packageId: pkg.id, sessionId: pkg.recipientSessions[0]!.id }]);
  await expectAxeClean(page, "the integrator's page, before consent");
  await screenshotBoth(page, "embed-host-ready");

  await frame.getByLabel("I agree to sign electronically").check();
  await frame.getByRole("button", { name: "Continue" }).click();
  await expect(frame.locator("[data-page-overlay='1']")).toBeVisible();
  await frame.getByRole("button", { name: /^Signature \(required\): / }).click();
  const dialog = frame.getByRole("dialog", { name: "Add your signature" });
  await dialog.getByRole("button", { name: "Type" }).click();
  await dialog.getByLabel("Type your signature").fill("Tina Tenant");
  await dialog.getByRole("button", { name: "Use this signature" }).click();
  await expect(dialog).toBeHidden();
  await frame.getByLabel(/^Tenant phone/).fill("+44 20 7946 0000");
  await frame.getByLabel(/^Tenant phone/).press("Tab");
  await expect.poll(async () => (await events(page)).filter((e) => e.type === "field-signed").length).toBe(2);
  expect((await events(page)).some((e) => e.type === "completed")).toBe(false);
  await frame.getByRole("button", { name: "Finish" }).click();
  // The only signer: the package completes, so the page reads "Everyone has signed".
  await expect(frame.getByRole("heading", { name: "Everyone has signed" })).toBeVisible();
  await expect.poll(async () => (await events(page)).map((e) => e.type)).toEqual(["ready", "field-signed", "field-signed", "completed"]);
  const received = await events(page);
  for (const e of received) expect(e).toMatchObject({ packageId: pkg.id, sessionId: pkg.recipientSessions[0]!.id });
  expect(JSON.stringify(received)).not.toContain(token);
  // `completed` came after the commit: the API already shows the recipient COMPLETED.
  const after = await api(request).get<{ status: string; recipientSessions: { status: string }[] }>(`/packages/${pkg.id}`);
  expect(after.recipientSessions[0]!.status).toBe("COMPLETED");
  await expectAxeClean(page, "the integrator's page, finished");
  await screenshotBoth(page, "embed-host-completed");

  // The URL was single use: mounted again in another browser (no embed cookie), the frame says the session
  // ended and the page hears `error`. (This browser still holds the session's cookie, which opens the session.)
  const other = await browser.newContext();
  const again = await other.newPage();
  await again.goto(`${host.origin}/?url=${encodeURIComponent(url)}`);
  await expect(again.frameLocator("iframe[title='Sign the lease']").getByRole("heading", { name: "This signing session has ended" })).toBeVisible();
  await expect.poll(async () => (await events(again)).map((e) => e.type)).toEqual(["error"]);
  await other.close();
});

test("a third origin cannot frame an embedded URL and hears nothing; an ordinary signing page cannot be framed at all", async ({ page, request }) => {
  const pkg = await sentPackage(request, "Lease — stolen URL");
  const url = await embedUrl(request, pkg, host.origin);
  const refusals: string[] = [];
  page.on("console", (m) => {
    if (/frame-ancestors/.test(m.text())) refusals.push(m.text());
  });
  await page.goto(`${third.origin}/?url=${encodeURIComponent(url)}`);
  await expect.poll(() => refusals.length).toBeGreaterThan(0);
  expect(refusals.join("\n")).toContain(`frame-ancestors ${host.origin}`);
  await expect(page.frameLocator("#f").getByRole("heading", { name: "Before you sign" })).toHaveCount(0);
  await page.waitForTimeout(1500);
  expect(await events(page)).toEqual([]);

  // The ordinary link of the same session: 'none', even for the listed origin.
  const { url: plain } = await api(request).post<{ url: string }>(`/packages/${pkg.id}/signing-url`, { sessionId: pkg.recipientSessions[0]!.id });
  const res = await request.get(plain);
  expect(res.headers()["content-security-policy"]).toBe("frame-ancestors 'none'");
  refusals.length = 0;
  await page.goto(`${host.origin}/?url=${encodeURIComponent(plain)}`);
  await expect.poll(() => refusals.join("\n")).toContain("frame-ancestors 'none'");
  await page.waitForTimeout(1000);
  expect(await events(page)).toEqual([]);
});
