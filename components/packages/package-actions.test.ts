/**
 * The package page disables what the member's role may not do (issue 24, item 10): sending and every action
 * on a scheduled or sent package need canSendPackages, as the server answers 403; a draft's preparer may still
 * transfer or delete it. Protects `unavailable`, which decides each button's disabled state and its reason.
 */
import { describe, expect, it } from "vitest";
import { unavailable, type TAsk } from "./package-actions";
import type { TPackage } from "./query";

type TStatus = TPackage["status"];

function pkg(status: TStatus): TPackage {
  const session = {
    id: "ses_1",
    status: status === "DRAFT" || status === "SCHEDULED" ? "PENDING" : "SENT",
    order: 0,
    email: "tenant@example.com",
    name: null,
    roleName: null,
  };
  return { id: "pkg_1", status, recipientSessions: [session] } as unknown as TPackage;
}

const NOT_SENDER = "Your role may not send packages, nor act on a scheduled or sent one.";
const ON_SENT: TAsk[] = ["hold", "remind", "link", "void", "transfer", "delete"];

describe("unavailable: a role without canSendPackages", () => {
  it("cannot act on a package in progress; a role with it can", () => {
    for (const ask of ON_SENT) {
      expect(unavailable(ask, pkg("IN_PROGRESS"), false)).toBe(NOT_SENDER);
      expect(unavailable(ask, pkg("IN_PROGRESS"), true)).toBeNull();
    }
    expect(unavailable("resume", pkg("ON_HOLD"), false)).toBe(NOT_SENDER);
    expect(unavailable("resume", pkg("ON_HOLD"), true)).toBeNull();
  });

  it("cannot transfer or delete a scheduled or ended package", () => {
    for (const status of ["SCHEDULED", "COMPLETED", "VOID"] as const) {
      for (const ask of ["transfer", "delete"] as const) {
        expect(unavailable(ask, pkg(status), false)).toBe(NOT_SENDER);
        expect(unavailable(ask, pkg(status), true)).toBeNull();
      }
    }
  });

  it("may still transfer and delete a draft, but not send it", () => {
    expect(unavailable("transfer", pkg("DRAFT"), false)).toBeNull();
    expect(unavailable("delete", pkg("DRAFT"), false)).toBeNull();
    expect(unavailable("send", pkg("DRAFT"), false)).toBe("Your role may not send packages.");
  });
});
