/**
 * Sign-in returns to the page a visit was sent away from, and only to a page of this site: a crafted `next`
 * never sends a member who just signed in to another origin (an open redirect is a phishing tool).
 */
import { describe, expect, it } from "vitest";
import { safeReturnPath, signInPathFor } from "./return-path";

describe("safeReturnPath", () => {
  it("keeps a path of this site with its query and fragment", () => {
    expect(safeReturnPath("/packages/pkg_123?tab=audit#events")).toBe("/packages/pkg_123?tab=audit#events");
    expect(safeReturnPath("/settings/members")).toBe("/settings/members");
  });

  it("refuses every spelling of another origin, and what is not a path", () => {
    const hostile = [
      "//evil.example.com/x",
      "/\\evil.example.com",
      "/\t/evil.example.com",
      "/\n/evil.example.com",
      "https://evil.example.com/",
      "javascript:alert(1)",
      "evil.example.com",
      "",
      null,
      undefined,
      ["/packages", "/templates"],
    ];
    expect(hostile.map(safeReturnPath)).toEqual(hostile.map(() => "/"));
  });

  it("never returns to the sign-in or sign-out pages", () => {
    expect(["/signin", "/signin?next=%2Fpackages", "/signout", "/signout/"].map(safeReturnPath)).toEqual(["/", "/", "/", "/"]);
    expect(safeReturnPath("/signing-groups")).toBe("/signing-groups");
  });
});

describe("signInPathFor", () => {
  it("names the page to return to, encoded; the start page needs none", () => {
    expect(signInPathFor("/packages?status=SENT&q=a b")).toBe("/signin?next=%2Fpackages%3Fstatus%3DSENT%26q%3Da%2520b");
    expect(signInPathFor("/")).toBe("/signin");
    expect(signInPathFor(null)).toBe("/signin");
    expect(signInPathFor("//evil.example.com")).toBe("/signin");
  });
});
