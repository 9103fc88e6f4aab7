/**
 * Issue 24: a dynamic path segment that is not percent-encoded UTF-8 made the built app answer a plain-text
 * 500 "Internal Server Error" before authentication, with nothing logged (Next's router fails to decode the
 * param and has no error page to render). Our HTTP server now refuses such paths before Next: a JSON 400 on
 * the APIs and upload URLs, the app's HTML 404 page elsewhere. The requests are sent raw (node:http), so
 * nothing on the client side normalises the bytes under test.
 */
import http from "node:http";
import { expect, test } from "@playwright/test";

function raw(baseURL: string, method: string, target: string): Promise<{ status: number; contentType: string; body: string }> {
  const { hostname, port } = new URL(baseURL);
  return new Promise((resolve, reject) => {
    const req = http.request({ hostname, port, method, path: target, headers: method === "GET" ? {} : { "content-length": "0" } }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode!, contentType: String(res.headers["content-type"] ?? ""), body }));
    });
    req.on("error", reject);
    req.end();
  });
}

test("malformed percent-encoding in an API or upload path is a JSON 400, before authentication", async ({ baseURL }) => {
  const cases: [string, string][] = [
    ["GET", "/api/v1/packages/%ff"],
    ["GET", "/api/v1/packages/%"],
    ["PUT", "/uploads/%"],
    ["PUT", "/api/app/sign/x/fields/%ff"],
    ["PATCH", "/api/app/roles/%ff"],
    ["POST", "/api/v1/packages/%ED%A0%80/send"],
  ];
  for (const [method, path] of cases) {
    const res = await raw(baseURL!, method, path);
    expect(res.status, `${method} ${path}`).toBe(400);
    expect(res.contentType).toMatch(/^application\/json/);
    expect(JSON.parse(res.body)).toEqual({ error: "Malformed path: a segment is not valid percent-encoded UTF-8" });
  }
  // Control: the same routes with a segment that decodes reach the route and its door.
  expect((await raw(baseURL!, "GET", "/api/v1/packages/pkg_x")).status).toBe(401);
});

test("malformed percent-encoding in a page path is the app's HTML 404 page", async ({ baseURL }) => {
  for (const path of ["/sign/%ff", "/sign/%", "/invite/%E2%82", "/packages/%ff"]) {
    const res = await raw(baseURL!, "GET", path);
    expect(res.status, path).toBe(404);
    expect(res.contentType).toMatch(/^text\/html/);
    expect(res.body).toContain("There is no page at this address.");
  }
});
