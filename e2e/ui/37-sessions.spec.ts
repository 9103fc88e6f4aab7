/**
 * Where you're signed in (Your account): a member signed in on three browsers sees all three, this one first;
 * signs one out (asked first, Cancel focused) and that browser is at the sign-in page on its next request; signs
 * out all the others at once; and after signing out here, a copy of this browser's session cookie no longer works.
 * The owner's Activity tells the sign-ins and sign-outs; the owner sees where a member is signed in and signs them
 * out of one session or everywhere. A wrong password shows on the member's Account page and on
 * Activity. At 1280 and 390 px, axe-clean.
 */
import { expect, test } from "@playwright/test";
import { appRequest } from "../support/app-request";
import { expectAxeClean } from "../support/axe";
import { OWNER, signIn, signInAsOwner, signOut } from "../support/owner";
import { failOnPageErrors } from "../support/page-errors";
import { screenshot, screenshotBoth } from "../support/screenshot";

failOnPageErrors();

const SAM = { email: "sam.sessions@acme.test", name: "Sam Sessions", password: "sam-sessions-password" };
const FIREFOX_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";
const DAY = 24 * 60 * 60_000;
const SAFARI_IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";

test("a member sees where they are signed in and signs other sessions out", async ({ page, browser }) => {
  // Four browsers signing in and out: over a minute on a busy two-core machine.
  test.setTimeout(180_000);
  await signInAsOwner(page);
  const roles = (await (await page.request.get("/api/app/roles")).json()) as { data: { id: string; name: string }[] };
  const created = await appRequest(page).post("/api/app/members", {
    data: { method: "password", email: SAM.email, name: SAM.name, roleId: roles.data.find((r) => r.name === "Sender")!.id, password: SAM.password },
  });
  expect(created.status()).toBe(201);
  await signOut(page);

  const laptop = await browser.newContext({ userAgent: FIREFOX_WINDOWS });
  const laptopPage = await laptop.newPage();
  await signIn(laptopPage, SAM.email, SAM.password);
  const phone = await browser.newContext({ userAgent: SAFARI_IPHONE });
  const phonePage = await phone.newPage();
  await signIn(phonePage, SAM.email, SAM.password);
  await signIn(page, SAM.email, SAM.password);
  // The session's cookie lives the session's 30 days (unused for 7 it is over sooner, on the server), so daily use
  // is never cut at day 7; and the session next-auth serves to the browser does not carry the session's id.
  const sessionCookie = (await page.context().cookies()).find((c) => c.name.endsWith("next-auth.session-token"));
  expect(sessionCookie!.httpOnly).toBe(true);
  expect(sessionCookie!.expires * 1000 - Date.now()).toBeGreaterThan(30 * DAY - 10 * 60_000);
  expect(sessionCookie!.expires * 1000 - Date.now()).toBeLessThanOrEqual(30 * DAY);
  const served = (await (await page.request.get("/api/auth/session")).json()) as { member: Record<string, unknown> };
  expect(Object.keys(served.member).sort()).toEqual(["email", "isOwner", "name", "organisationId", "userId"]);

  await page.goto("/account");
  const card = page.getByRole("list", { name: "Your sessions" });
  const rows = card.getByTestId("session-row");
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toContainText("This browser");
  await expect(rows.nth(0)).toContainText("127.0.0.1");
  await expect(rows.nth(0)).toContainText("Active now");
  // The others by last activity: the phone signed in after the laptop.
  await expect(rows.nth(1)).toContainText("Safari on iPhone");
  await expect(rows.nth(2)).toContainText("Firefox on Windows");
  await expectAxeClean(page, "the account page's sessions");
  await screenshotBoth(page, "account-sessions");

  // One session, asked first.
  await rows
    .nth(1)
    .getByRole("button", { name: /^Sign out Safari on iPhone/ })
    .click();
  const confirm = page.getByRole("dialog", { name: "Sign out Safari on iPhone?" });
  await expect(confirm.getByRole("button", { name: "Cancel" })).toBeFocused();
  await screenshot(page, "account-sessions-confirm");
  await confirm.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByText("Signed out Safari on iPhone.")).toBeVisible();
  await expect(rows).toHaveCount(2);
  await phonePage.goto("/packages");
  await expect(phonePage).toHaveURL(/\/signin/);
  // The laptop still works.
  await laptopPage.goto("/packages");
  await expect(laptopPage.getByRole("navigation", { name: "Main" })).toBeVisible();

  // All the others at once.
  await page.getByRole("button", { name: "Sign out all other sessions" }).click();
  const all = page.getByRole("dialog", { name: "Sign out all other sessions?" });
  await expect(all).toContainText("1 other session will go to the sign-in page at their next request.");
  await all.getByRole("button", { name: "Sign out others" }).click();
  await expect(page.getByText("Signed out 1 other session.")).toBeVisible();
  await expect(rows).toHaveCount(1);
  await expect(page.getByText("You are not signed in anywhere else.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Sign out all other sessions" })).toBeDisabled();
  await laptopPage.goto("/packages");
  await expect(laptopPage).toHaveURL(/\/signin/);
  await expectAxeClean(page, "the account page with one session");
  await screenshotBoth(page, "account-sessions-alone");

  // Signing out here ends the session on the server: a copy of its cookie is refused afterwards.
  const cookies = await page.context().cookies();
  await signOut(page);
  const copy = await browser.newContext();
  await copy.addCookies(cookies);
  const copyPage = await copy.newPage();
  await copyPage.goto("/packages");
  await expect(copyPage).toHaveURL(/\/signin/);
  expect((await copyPage.request.get("/api/app/me/sessions")).status()).toBe(401);
  await Promise.all([laptop.close(), phone.close(), copy.close()]);

  // The owner reads the member's sign-ins and sign-outs on Activity.
  await signInAsOwner(page);
  await page.goto("/settings/activity");
  await page.getByLabel("Show").selectOption("sign_ins");
  const activity = page.getByTestId("activity-row").filter({ hasText: SAM.name });
  await expect(activity.nth(0)).toContainText("Signed out 1 other session");
  await expect(activity.nth(1)).toContainText("Signed out their session on Safari on iPhone from another session");
  await expect(activity.filter({ hasText: "Signed in (Safari on iPhone)" })).toHaveCount(1);
  await expect(activity.filter({ hasText: "Signed in (Firefox on Windows)" })).toHaveCount(1);
  // Members and roles leaves them out: adding Sam is there, none of the sign-ins.
  await page.getByLabel("Show").selectOption("members");
  await expect(page.getByTestId("activity-row").filter({ hasText: `Added ${SAM.name}` })).toHaveCount(1);
  await expect(page.getByTestId("activity-row").filter({ hasText: "Signed in" })).toHaveCount(0);
});

test("the owner signs a member out of one session, then everywhere, from Members", async ({ page, browser }) => {
  test.setTimeout(180_000);
  const theirs = await browser.newContext();
  const theirPage = await theirs.newPage();
  await signIn(theirPage, SAM.email, SAM.password);
  const theirPhone = await browser.newContext({ userAgent: SAFARI_IPHONE });
  const theirPhonePage = await theirPhone.newPage();
  await signIn(theirPhonePage, SAM.email, SAM.password);

  await signInAsOwner(page);
  await page.goto("/settings/members");
  await page.getByRole("button", { name: `Sessions of ${SAM.name}` }).click();
  const sessions = page.getByRole("dialog", { name: `Where ${SAM.name} is signed in` });
  await expect(sessions.getByRole("button", { name: "Close" })).toBeFocused();
  const rows = sessions.getByRole("list", { name: `Sessions of ${SAM.name}` }).getByTestId("member-session-row");
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText("Safari on iPhone");
  await expect(rows.nth(1)).toContainText("Headless Chrome on Linux");
  await expect(rows.nth(1)).toContainText("127.0.0.1");
  await expectAxeClean(page, "a member's sessions");
  await screenshotBoth(page, "members-sessions");

  // One session, asked in its row: Cancel is focused, and gives the focus back.
  const signOutPhone = rows.nth(0).getByRole("button", { name: /^Sign out Safari on iPhone/ });
  await signOutPhone.click();
  const ask = rows.nth(0).getByRole("group", { name: "Sign out Safari on iPhone?" });
  await expect(ask.getByRole("button", { name: "Cancel" })).toBeFocused();
  await expectAxeClean(page, "signing out one of a member's sessions");
  await screenshotBoth(page, "members-session-sign-out");
  await page.keyboard.press("Enter");
  await expect(ask).toHaveCount(0);
  await expect(signOutPhone).toBeFocused();
  await page.keyboard.press("Enter");
  await ask.getByRole("button", { name: "Sign out" }).click();
  await expect(sessions.getByText(`Signed ${SAM.name} out of Safari on iPhone.`)).toBeVisible();
  await expect(rows).toHaveCount(1);
  await expect(sessions.getByRole("button", { name: "Close" })).toBeFocused();
  await screenshot(page, "members-session-signed-out");
  await theirPhonePage.goto("/packages");
  await expect(theirPhonePage).toHaveURL(/\/signin/);
  await theirPage.goto("/packages");
  await expect(theirPage.getByRole("navigation", { name: "Main" })).toBeVisible();

  // Everywhere, asked first.
  await sessions.getByRole("button", { name: "Sign out everywhere" }).click();
  const confirm = page.getByRole("dialog", { name: `Sign ${SAM.name} out everywhere?` });
  await expect(confirm).toContainText("Their password still works");
  await expect(confirm.getByRole("button", { name: "Cancel" })).toBeFocused();
  await expectAxeClean(page, "the sign-out-everywhere dialog");
  await screenshot(page, "members-sign-out-everywhere");
  await confirm.getByRole("button", { name: "Sign out everywhere" }).click();
  await expect(page.getByText(`${SAM.name} was signed out of 1 session.`)).toBeVisible();
  await screenshotBoth(page, "members-signed-out-everywhere");

  await theirPage.goto("/packages");
  await expect(theirPage).toHaveURL(/\/signin/);
  await page.getByRole("button", { name: `Sessions of ${SAM.name}` }).click();
  await expect(sessions.getByText("Not signed in anywhere.")).toBeVisible();
  await expect(sessions.getByRole("button", { name: "Sign out everywhere" })).toBeDisabled();
  await sessions.getByRole("button", { name: "Close" }).click();
  // Their password still works.
  await signIn(theirPage, SAM.email, SAM.password);
  await Promise.all([theirs.close(), theirPhone.close()]);

  await page.goto("/settings/activity");
  await expect(page.getByTestId("activity-row").filter({ hasText: `Signed ${SAM.name} (${SAM.email}) out of their session on Safari on iPhone` })).toHaveCount(
    1,
  );
  await expect(page.getByTestId("activity-row").filter({ hasText: `Signed ${SAM.name} (${SAM.email}) out everywhere (1 session)` })).toHaveCount(1);
});

test("a wrong password shows on the member's Account page and on the owner's Activity", async ({ page, browser }) => {
  const guesser = await browser.newContext({ userAgent: SAFARI_IPHONE });
  const guesserPage = await guesser.newPage();
  await guesserPage.goto("/signin");
  await guesserPage.getByLabel("Email").fill(SAM.email);
  await guesserPage.getByLabel("Password").fill("not sams password");
  await guesserPage.getByRole("button", { name: "Sign in" }).click();
  await expect(guesserPage.getByText("Email or password is incorrect.")).toBeVisible();
  await guesser.close();

  await signIn(page, SAM.email, SAM.password);
  await page.goto("/account");
  await expect(page.getByTestId("failed-sign-ins-count")).toHaveText("1 failed sign-in in the last 30 days:");
  const failed = page.getByRole("list", { name: "Failed sign-ins" }).getByTestId("failed-sign-in-row");
  await expect(failed).toHaveCount(1);
  await expect(failed.nth(0)).toContainText("Wrong password · Safari on iPhone");
  await expect(failed.nth(0)).toContainText("127.0.0.1");
  await expectAxeClean(page, "the account page's failed sign-ins");
  await page.getByRole("heading", { name: "Failed sign-ins" }).scrollIntoViewIfNeeded();
  await screenshotBoth(page, "account-failed-sign-ins");
  await signOut(page);

  // (Not the owner's own Account page: other specs give the owner's password wrong on purpose.)
  await signInAsOwner(page);
  await page.goto("/settings/activity");
  await page.getByLabel("Show").selectOption("sign_ins");
  await expect(
    page.getByTestId("activity-row").filter({ hasText: `A sign-in as ${SAM.name} (${SAM.email}) failed: wrong password (Safari on iPhone)` }),
  ).toHaveCount(1);
  await screenshot(page, "activity-failed-sign-in");
});

test("signing in returns to the page a signed-out visit asked for: a link in a mail, or the page a session ended on", async ({ page, browser }) => {
  test.setTimeout(120_000);
  await signInAsOwner(page);
  await signOut(page);
  await page.goto("/settings/members?from=mail");
  await expect(page).toHaveURL(/\/signin\?next=%2Fsettings%2Fmembers%3Ffrom%3Dmail$/);
  await page.getByLabel("Email").fill(OWNER.email);
  await page.getByLabel("Password").fill(OWNER.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/settings\/members\?from=mail$/);
  await expect(page.getByRole("heading", { name: "Members", level: 1 })).toBeVisible();

  // A session signed out from elsewhere: its next page is the sign-in page, which returns there.
  const other = await browser.newContext({ userAgent: FIREFOX_WINDOWS });
  const otherPage = await other.newPage();
  await signIn(otherPage, SAM.email, SAM.password);
  await otherPage.goto("/templates");
  await page.goto("/settings/members");
  await page.getByRole("button", { name: `Sessions of ${SAM.name}` }).click();
  await page
    .getByRole("dialog", { name: `Where ${SAM.name} is signed in` })
    .getByRole("button", { name: /^Sign out Firefox on Windows/ })
    .click();
  await page.getByRole("group", { name: "Sign out Firefox on Windows?" }).getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByText(`Signed ${SAM.name} out of Firefox on Windows.`)).toBeVisible();
  await otherPage.reload();
  await expect(otherPage).toHaveURL(/\/signin\?next=%2Ftemplates$/);
  await otherPage.getByLabel("Email").fill(SAM.email);
  await otherPage.getByLabel("Password").fill(SAM.password);
  await otherPage.getByRole("button", { name: "Sign in" }).click();
  await expect(otherPage).toHaveURL(/\/templates$/);
  await expect(otherPage.getByRole("navigation", { name: "Main" })).toBeVisible();
  // Already signed in, a sign-in link goes straight to the page it names.
  await otherPage.goto("/signin?next=%2Faccount");
  await expect(otherPage).toHaveURL(/\/account$/);
  await other.close();
});
