/**
 * Regression (issue 24, item 3), in a real browser: a page on ANOTHER PORT of the app's host (127.0.0.1 — the
 * same site, like a sibling subdomain in production, so the owner's SameSite=Lax session cookie goes along)
 * submits `text/plain` forms and `no-cors` fetches whose bodies are JSON to create a workspace and a role with
 * every permission, to decline on the signing page's API and to sign the owner out. Before the fix the
 * workspace and the role were created. Now every one is refused with 403: the forms' requests are seen to carry
 * the session cookie and `Sec-Fetch-Site: same-site` (DevTools does not report the raw headers of an opaque
 * no-cors fetch, so a no-cors GET from the same page, answered 200 rather than 401, shows the cookie goes
 * along there too). Afterwards the app's own API shows nothing new, the owner is still signed in, and the
 * app's own page still writes. Nothing sleeps: Playwright's polling waits.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Page, type Response } from "@playwright/test";
import { signInAsOwner } from "../support/owner";

const ROLE = { apiAccess: true, canSendPackages: true, canViewAllPackages: true, canManageWebhooks: true, templateAccess: "CREATE" };

/** The attacker's page: two text/plain forms (into frames) and four no-cors POSTs, all on load, and one no-cors GET. */
function attackPage(app: string): string {
  // A text/plain form sends `name=value`: the name opens the JSON, the value closes it (`..."x":"="}`).
  const formField = (json: Record<string, unknown>) => {
    const text = JSON.stringify({ ...json, x: "" }).slice(0, -2);
    return `<input type="hidden" name='${text}' value='"}'>`;
  };
  const noCors = (path: string, body: unknown) =>
    `fetch(${JSON.stringify(app + path)}, { method: "POST", mode: "no-cors", credentials: "include", headers: { "content-type": "text/plain" }, body: ${JSON.stringify(JSON.stringify(body))} }).catch(() => {});`;
  return `<!doctype html><title>Not the app</title>
<iframe name="f1"></iframe><iframe name="f2"></iframe>
<form id="w" method="POST" enctype="text/plain" target="f1" action="${app}/api/app/workspaces">${formField({ name: "Form workspace", slug: "form-ws" })}</form>
<form id="r" method="POST" enctype="text/plain" target="f2" action="${app}/api/app/roles">${formField({ name: "Form role", ...ROLE })}</form>
<script>
  document.getElementById("w").submit();
  document.getElementById("r").submit();
  ${noCors("/api/app/workspaces", { name: "Fetch workspace", slug: "fetch-ws" })}
  ${noCors("/api/app/roles", { name: "Fetch role", ...ROLE })}
  ${noCors("/api/app/sign/not-a-real-token/decline", { reason: "declined by another origin" })}
  ${noCors("/api/auth/signout", {})}
  fetch(${JSON.stringify(app + "/api/app/roles")}, { mode: "no-cors", credentials: "include" }).catch(() => {});
</script>`;
}

async function names(page: Page, path: string): Promise<string[]> {
  const res = await page.request.get(path);
  expect(res.status()).toBe(200);
  return ((await res.json()) as { data: { name: string }[] }).data.map((d) => d.name).sort();
}

test("a page on another port of the app's host cannot write as the signed-in owner", async ({ page, context, baseURL }) => {
  await signInAsOwner(page);
  const app = new URL(baseURL!).origin;
  const before = { workspaces: await names(page, "/api/app/workspaces"), roles: await names(page, "/api/app/roles") };

  const server = http.createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(attackPage(app));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const evil = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  expect(evil).not.toBe(app);

  try {
    const attacker = await context.newPage();
    const seen: Response[] = [];
    attacker.on("response", (res) => {
      if (res.url().startsWith(`${app}/api/`)) seen.push(res);
    });
    await attacker.goto(`${evil}/`);
    await expect.poll(() => seen.length).toBe(7);

    const attempts = await Promise.all(
      seen.map(async (res) => {
        const headers = await res.request().allHeaders();
        const attempt = { by: res.request().resourceType(), request: `${res.request().method()} ${new URL(res.url()).pathname}`, status: res.status() };
        if (attempt.by !== "document") return attempt;
        // A form's request: the attack is real, the owner's session cookie went along from a same-site page.
        return {
          ...attempt,
          site: headers["sec-fetch-site"],
          contentType: headers["content-type"],
          withSession: /next-auth\.session-token=/.test(headers["cookie"] ?? ""),
        };
      }),
    );
    attempts.sort((a, b) => `${a.by} ${a.request}`.localeCompare(`${b.by} ${b.request}`));
    const form = (request: string) => ({ by: "document", request, status: 403, site: "same-site", contentType: "text/plain", withSession: true });
    const fetched = (request: string, status = 403) => ({ by: "fetch", request, status });
    expect(attempts).toEqual([
      form("POST /api/app/roles"),
      form("POST /api/app/workspaces"),
      fetched("GET /api/app/roles", 200), // signed in: the no-cors requests carry the session
      fetched("POST /api/app/roles"),
      fetched("POST /api/app/sign/not-a-real-token/decline"),
      fetched("POST /api/app/workspaces"),
      fetched("POST /api/auth/signout"),
    ]);
    await attacker.close();
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }

  // Nothing was created, and the owner is still signed in.
  expect(await names(page, "/api/app/workspaces")).toEqual(before.workspaces);
  expect(await names(page, "/api/app/roles")).toEqual(before.roles);

  // The app's own page still writes: the browser says same-origin.
  const own = await page.evaluate(async () => {
    const list = (await (await fetch("/api/app/workspaces")).json()) as { data: { id: string; isDefault: boolean }[] };
    const res = await fetch("/api/app/current-workspace", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ workspaceId: list.data.find((w) => w.isDefault)!.id }),
    });
    return res.status;
  });
  expect(own).toBe(200);
});
