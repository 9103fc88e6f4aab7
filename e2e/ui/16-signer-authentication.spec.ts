/**
 * Signer identity (issue 21) in the browser, against the built app started here with a real SMTP server on
 * loopback (e2e/support/app-with-smtp.ts), so the invitations and the email code are read as mailed.
 *
 * The sender presets "Email code" for the template's second role in the template editor, then in the
 * new-package form gives the first recipient an access code (masked, never shown again: not in the package's
 * answer nor its page) and sends. Recipient one opens the invitation's link: the check screen shows only the
 * title; a wrong code says so (role=alert, tries left) and keeps the input; the right one opens the normal
 * signing page, which a reload keeps, while another browser is asked again; they sign. Recipient two asks for
 * an email code, reads it from the mail and passes by keyboard alone; the package completes. Then the locked
 * path: five wrong codes lock the link; the sender sees "Locked" on the package page and unlocks it (asked
 * first); the recipient passes; when the sender then corrects the code, the open page asks again. axe finds
 * no violation on the check screens at 1280 and 390 px; screenshots of the check screens, the form and the
 * package page at both widths.
 */
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { receivedMail, signingPath, startAppWithSmtp, type TAppWithSmtp } from "../support/app-with-smtp";
import { signInAsOwner } from "../support/owner";
import { failOnPageErrors } from "../support/page-errors";
import { titledPdf } from "../support/pdf";
import { screenshot, screenshotBoth } from "../support/screenshot";

test.describe.configure({ mode: "serial" });

// Beside the shared webServer's port: a server of this spec's own, with SMTP (see the file's comment).
const PORT = Number(process.env.E2E_PORT ?? 3100) + 50;
const BASE_URL = `http://127.0.0.1:${PORT}`;
test.use({ baseURL: BASE_URL });

const ACCESS_CODE = "Tiger-Lily-42";
const ONE = { email: "ana.access@example.com", name: "Ana Access" };
const TWO = { email: "eli.email@example.com", name: "Eli Email" };
const LOCKED = { email: "lou.locked@example.com", name: "Lou Locked" };

let app: TAppWithSmtp;
let templateId = "";
let packageId = "";

test.beforeAll(async () => {
  test.setTimeout(180_000);
  app = await startAppWithSmtp(PORT);
});
test.afterAll(async () => {
  await app?.stop();
});

failOnPageErrors();

/** The app's own API with the page's session and its Origin (a write without it is refused). */
function appApi(page: Page) {
  const headers = { origin: BASE_URL };
  async function ok<T>(res: Awaited<ReturnType<Page["request"]["get"]>>): Promise<T> {
    expect(res.ok(), `${res.url()} answered ${res.status()}: ${await res.text()}`).toBe(true);
    return ((await res.json()) as { data: T }).data;
  }
  return {
    get: async <T>(path: string) => ok<T>(await page.request.get(path)),
    text: async (path: string) => (await page.request.get(path)).text(),
    post: async <T>(path: string, data: unknown) => ok<T>(await page.request.post(path, { headers, data })),
    patch: async <T>(path: string, data: unknown) => ok<T>(await page.request.patch(path, { headers, data })),
  };
}

const agreementPdf = () => titledPdf([["Consulting agreement", "The client and the consultant sign below."]]);

/** No axe violation at all on the page as it is, at 1280 and at 390 px. */
async function expectAccessibleBoth(page: Page) {
  const size = page.viewportSize()!;
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    const result = await new AxeBuilder({ page }).analyze();
    expect(
      result.violations.map((v) => `${width}px ${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(" | ")}`),
      `axe at ${width} px`,
    ).toEqual([]);
  }
  await page.setViewportSize(size);
}

/** Agrees to sign electronically and waits for the (one-page) document to be laid out. */
async function consent(page: Page) {
  await expect(page.getByRole("heading", { name: "Before you sign" })).toBeVisible();
  await page.getByLabel("I agree to sign electronically").check();
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.locator("[data-page-overlay='1']")).toBeVisible();
}

/** Signs with a typed signature and finishes: the document is open, past the consent. */
async function signAndFinish(page: Page, name: string) {
  await page.getByRole("button", { name: /^Signature \(required\): / }).click();
  const dialog = page.getByRole("dialog", { name: "Add your signature" });
  await dialog.getByRole("button", { name: "Type" }).click();
  await dialog.getByLabel("Type your signature").fill(name);
  await dialog.getByRole("button", { name: "Use this signature" }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole("button", { name: "Finish" }).click();
}

/** The check screen, showing nothing of the package but its title. */
async function expectCheckScreen(page: Page, title: string, label: "Access code" | "Email code" | null) {
  await expect(page.getByRole("heading", { name: "Confirm it’s you", level: 1 })).toBeVisible();
  await expect(page.getByText(title, { exact: true })).toBeVisible();
  if (label) await expect(page.getByLabel(label)).toBeVisible();
  await expect(page.getByRole("heading", { name: "Before you sign" })).toHaveCount(0);
  await expect(page.locator("[data-page-overlay]")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Decline" })).toHaveCount(0);
}

async function newContextPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: BASE_URL, viewport: { width: 1280, height: 800 }, timezoneId: "Europe/Paris", locale: "en-GB" });
  return context.newPage();
}

test("set up: an ACTIVE template whose second role is preset to “Email code” in the template editor", async ({ page }) => {
  await signInAsOwner(page);
  const api = appApi(page);
  const tpl = await api.post<{ id: string }>("/api/app/templates", { name: "Consulting agreement", description: "Client, then consultant" });
  templateId = tpl.id;
  const bytes = await agreementPdf();
  const added = await api.post<{ document: { id: string }; uploadUrl: string }>(`/api/app/templates/${tpl.id}/documents`, {
    name: "agreement.pdf",
    fileSize: bytes.length,
  });
  expect((await page.request.put(added.uploadUrl, { data: bytes, headers: { "content-type": "application/pdf" } })).ok()).toBe(true);
  for (const [roleIndex, name] of ["Client", "Consultant"].entries()) {
    await api.post(`/api/app/templates/${tpl.id}/roles`, { name });
    await api.post(`/api/app/templates/${tpl.id}/fields`, {
      documentId: added.document.id,
      roleIndex,
      type: "signature",
      page: 1,
      x: 56 + roleIndex * 260,
      y: 600,
      width: 200,
      height: 50,
    });
  }

  await page.goto(`/templates/${tpl.id}`);
  const preset = page.getByLabel("Identity check for Consultant");
  await expect(preset).toHaveValue("NONE");
  await preset.selectOption("EMAIL_CODE");
  await expect(page.getByText("Saved", { exact: true })).toBeVisible();
  await expect
    .poll(async () =>
      (await api.get<{ roles: { name: string; authentication: { method: string } }[] }>(`/api/app/templates/${tpl.id}`)).roles.map(
        (r) => r.authentication.method,
      ),
    )
    .toEqual(["NONE", "EMAIL_CODE"]);
  await screenshotBoth(page, "signer-auth-template-roles");
  await api.patch(`/api/app/templates/${tpl.id}`, { status: "ACTIVE" });
});

test("the new-package form sets an access code (masked, never shown again) and takes the role's email-code preset", async ({ page }) => {
  await signInAsOwner(page);
  await page.goto("/packages/new");
  await page.getByLabel("Template").selectOption({ label: "Consulting agreement (2 roles)" });
  await page.getByLabel("Title").fill("Consulting agreement — Ana");
  await page.getByLabel("Email of Client").fill(ONE.email);
  await page.getByLabel("Name of Client").fill(ONE.name);
  await page.getByLabel("Email of Consultant").fill(TWO.email);
  await page.getByLabel("Name of Consultant").fill(TWO.name);
  await expect(page.getByLabel("Identity check for Client")).toHaveValue("NONE");
  await expect(page.getByLabel("Identity check for Consultant")).toHaveValue("EMAIL_CODE");
  await page.getByLabel("Identity check for Client").selectOption("ACCESS_CODE");
  const code = page.getByLabel("Access code for Client");
  await expect(code).toHaveAttribute("type", "password");
  await code.fill(ACCESS_CODE);
  // "Show" reveals it against typos, "Hide" masks it again.
  await page.getByRole("button", { name: "Show the access code for Client" }).click();
  await expect(code).toHaveAttribute("type", "text");
  await page.getByRole("button", { name: "Hide the access code for Client" }).click();
  await expect(code).toHaveAttribute("type", "password");
  await screenshotBoth(page, "signer-auth-new-package");
  // Too short: the 422 names the field and is shown beside it.
  await code.fill("abc");
  await page.getByRole("button", { name: "Create and send" }).click();
  await expect(page.getByText("At least 4 characters")).toBeVisible();
  await expect(code).toHaveAttribute("aria-invalid", "true");
  await screenshotBoth(page, "signer-auth-new-package-error");
  await code.fill(ACCESS_CODE);
  await page.getByRole("button", { name: "Create and send" }).click();

  await expect(page).toHaveURL(/\/packages\/pkg_/);
  packageId = new URL(page.url()).pathname.split("/").pop()!;
  const rows = page.getByTestId("recipient-row");
  await expect(rows.nth(0).getByTestId("recipient-authentication")).toContainText("Identity check: Access code");
  await expect(rows.nth(1).getByTestId("recipient-authentication")).toContainText("Identity check: Email code");
  // Never shown again: not on the page, not in the package's answer.
  await expect(page.getByText(ACCESS_CODE)).toHaveCount(0);
  expect(await appApi(page).text(`/api/app/packages/${packageId}`)).not.toContain(ACCESS_CODE);
  await screenshotBoth(page, "signer-auth-package");
});

test("recipient one: a wrong access code says so and keeps the input; the right one opens the signing page, kept on reload, asked again elsewhere", async ({
  page,
  browser,
}) => {
  const invitation = await receivedMail(app.sink, ONE.email, /invites you to sign/);
  expect(invitation.raw).not.toContain(ACCESS_CODE);
  const link = signingPath(invitation);

  await page.goto(link);
  await expectCheckScreen(page, "Consulting agreement — Ana", "Access code");
  await expect(page.getByText(ONE.email)).toHaveCount(0);
  await expectAccessibleBoth(page);
  await screenshotBoth(page, "signer-auth-check-access-code");

  const input = page.getByLabel("Access code");
  await expect(input).toBeFocused();
  await input.fill("not-the-code");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("main").getByRole("alert")).toContainText("4 tries left");
  await expect(input).toBeVisible();
  await expect(input).toHaveAttribute("aria-invalid", "true");
  await expectAccessibleBoth(page);
  await screenshotBoth(page, "signer-auth-check-wrong-code");

  await input.fill(ACCESS_CODE);
  await input.press("Enter");
  await expect(page.getByRole("heading", { name: "Before you sign" })).toBeVisible();
  // Passing lasts for this browser session: a reload shows the signing page again, no code asked.
  await page.reload();
  await expect(page.getByRole("heading", { name: "Before you sign" })).toBeVisible();
  // Another browser (another cookie jar) is asked again.
  const elsewhere = await newContextPage(browser);
  await elsewhere.goto(link);
  await expectCheckScreen(elsewhere, "Consulting agreement — Ana", "Access code");
  await elsewhere.context().close();

  await consent(page);
  await signAndFinish(page, ONE.name);
  await expect(page.getByRole("heading", { name: "You're done — thank you" })).toBeVisible();
});

test("recipient two: asks for an email code, reads it from the mail and passes by keyboard alone; the package completes", async ({ page }) => {
  const link = signingPath(await receivedMail(app.sink, TWO.email, /invites you to sign/));
  await page.goto(link);
  await expectCheckScreen(page, "Consulting agreement — Ana", null);
  await expect(page.getByText("e…@example.com")).toBeVisible();
  await expectAccessibleBoth(page);
  await screenshotBoth(page, "signer-auth-check-email-code");

  const before = app.sink.received.length;
  // Keyboard only: Tab to "Send me a code", Enter; the code input takes the focus.
  const send = page.getByRole("button", { name: "Send me a code" });
  for (let i = 0; i < 10 && !(await send.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Tab");
  await expect(send).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("code-sent")).toContainText("We sent a code to e…@example.com");
  const input = page.getByLabel("Email code");
  await expect(input).toBeFocused();
  await expect(input).toHaveAttribute("autocomplete", "one-time-code");
  await expect(input).toHaveAttribute("inputmode", "numeric");
  await expect(page.getByRole("button", { name: "Send a new code" })).toBeVisible();
  await expectAccessibleBoth(page);
  await screenshotBoth(page, "signer-auth-check-email-code-sent");

  const mail = await receivedMail(app.sink, TWO.email, /^Your code to sign/);
  expect(app.sink.received.length).toBeGreaterThan(before);
  const code = /Your signing code:\s*(\d{6})\b/.exec(mail.text)?.[1];
  expect(code, `a 6-digit code in “${mail.subject}”`).toBeTruthy();
  // Pasted with a space in the middle, as some mail apps copy it: accepted.
  await page.keyboard.insertText(`${code!.slice(0, 3)} ${code!.slice(3)}`);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "Before you sign" })).toBeVisible();

  await consent(page);
  await signAndFinish(page, TWO.name);
  await expect(page.getByRole("heading", { name: "Everyone has signed" })).toBeVisible();
});

test("five wrong codes lock the link; the sender sees it locked and unlocks it (asked first); the recipient then passes", async ({ page, browser }) => {
  await signInAsOwner(page);
  const api = appApi(page);
  const pkg = await api.post<{ id: string; recipientSessions: { id: string; email: string }[] }>("/api/app/packages/from-template", {
    templateId,
    title: "Consulting agreement — Lou",
    status: "sent",
    sequential: false,
    recipients: [
      { email: LOCKED.email, name: LOCKED.name, roleIndex: 0, authentication: { method: "ACCESS_CODE", accessCode: ACCESS_CODE } },
      { email: "other.signer@example.com", name: "Other Signer", roleIndex: 1 },
    ],
  });
  const link = signingPath(await receivedMail(app.sink, LOCKED.email, /invites you to sign/));

  const signer = await newContextPage(browser);
  await signer.goto(link);
  await expectCheckScreen(signer, "Consulting agreement — Lou", "Access code");
  const input = signer.getByLabel("Access code");
  for (const left of [4, 3, 2, 1]) {
    await input.fill(`wrong-${left}`);
    await signer.getByRole("button", { name: "Continue" }).click();
    await expect(signer.getByRole("main").getByRole("alert")).toContainText(left === 1 ? "1 try left" : `${left} tries left`);
  }
  await input.fill("wrong-again");
  await signer.getByRole("button", { name: "Continue" }).click();
  await expect(signer.getByRole("heading", { name: "This link is locked", level: 1 })).toBeVisible();
  await expect(signer.getByText("Ask the sender to unlock it")).toBeVisible();
  await expect(signer.getByLabel("Access code")).toHaveCount(0);
  // A reload still shows the locked state (the server's count, not the page's).
  await signer.reload();
  await expect(signer.getByRole("heading", { name: "This link is locked", level: 1 })).toBeVisible();
  await expectAccessibleBoth(signer);
  await screenshotBoth(signer, "signer-auth-check-locked");

  await page.goto(`/packages/${pkg.id}`);
  const row = page.getByTestId("recipient-row").filter({ hasText: LOCKED.email });
  await expect(row.getByText("Locked", { exact: true })).toBeVisible();
  await screenshotBoth(page, "signer-auth-package-locked");
  await row.getByRole("button", { name: "Unlock" }).click();
  const dialog = page.getByRole("dialog", { name: `Unlock signing for ${LOCKED.name}?` });
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await screenshot(page, "signer-auth-unlock-confirm");
  await dialog.getByRole("button", { name: "Unlock" }).click();
  await expect(dialog).toBeHidden();
  await expect(row.getByText("Locked", { exact: true })).toHaveCount(0);
  await expect(row.getByRole("button", { name: "Unlock" })).toHaveCount(0);

  await signer.reload();
  await expectCheckScreen(signer, "Consulting agreement — Lou", "Access code");
  await signer.getByLabel("Access code").fill(ACCESS_CODE);
  await signer.getByRole("button", { name: "Continue" }).click();
  await expect(signer.getByRole("heading", { name: "Before you sign" })).toBeVisible();

  // The sender then corrects the recipient's access code (the public API's correction): the signer's next step
  // is refused (403) and the page asks again, for the new code.
  const roles = await api.get<{ id: string; name: string }[]>("/api/app/roles");
  const workspaces = await api.get<{ id: string; isDefault: boolean }[]>("/api/app/workspaces");
  const key = await api.post<{ value: string }>("/api/app/api-keys", {
    name: "Signer identity e2e",
    roleId: roles.find((r) => r.name === "Admin")!.id,
    workspaceId: workspaces.find((w) => w.isDefault)!.id,
  });
  const sessionId = pkg.recipientSessions.find((s) => s.email === LOCKED.email)!.id;
  const corrected = await page.request.patch(`/api/v1/packages/${pkg.id}/recipients/${sessionId}`, {
    headers: { authorization: `Bearer ${key.value}` },
    data: { authentication: { method: "ACCESS_CODE", accessCode: "New-Code-7" } },
  });
  expect(corrected.status(), await corrected.text()).toBe(200);
  await signer.getByLabel("I agree to sign electronically").check();
  await signer.getByRole("button", { name: "Continue" }).click();
  await expectCheckScreen(signer, "Consulting agreement — Lou", "Access code");
  await signer.getByLabel("Access code").fill(ACCESS_CODE);
  await signer.getByLabel("Access code").press("Enter");
  await expect(signer.getByRole("main").getByRole("alert")).toContainText("4 tries left");
  await signer.getByLabel("Access code").fill("New-Code-7");
  await signer.getByLabel("Access code").press("Enter");
  await expect(signer.getByRole("heading", { name: "Before you sign" })).toBeVisible();
  await signer.context().close();
});
