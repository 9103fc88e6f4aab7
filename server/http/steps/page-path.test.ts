/**
 * Our HTTP server tells a page which page was asked for (so a signed-out visit is sent to the sign-in page that
 * returns to it): pages asked for with GET, without the router's cache key; nothing for the API or Next's files.
 */
import { describe, expect, it } from "vitest";
import { pagePathOf } from "./page-path";

describe("pagePathOf", () => {
  it("is the path and query of a page asked for, without the router's _rsc key", () => {
    expect(pagePathOf("GET", "/packages/pkg_1")).toBe("/packages/pkg_1");
    expect(pagePathOf("GET", "/packages?status=SENT&_rsc=1x2y3")).toBe("/packages?status=SENT");
    expect(pagePathOf("GET", "/settings/members?_rsc=abc")).toBe("/settings/members");
    expect(pagePathOf("HEAD", "/templates")).toBe("/templates");
  });

  it("is nothing for the API, Next's own files, other methods and other request targets", () => {
    const none: [string, string][] = [
      ["GET", "/api/app/members"],
      ["GET", "/api/v1/packages?limit=5"],
      ["GET", "/_next/static/chunks/main.js"],
      ["POST", "/packages"],
      ["GET", "http://127.0.0.1:3000/packages"],
      ["GET", "//evil.example.com/x"],
      ["OPTIONS", "*"],
    ];
    expect(none.map(([method, target]) => pagePathOf(method, target))).toEqual(none.map(() => null));
    expect(pagePathOf("GET", "/apis-and-more")).toBe("/apis-and-more");
  });
});
