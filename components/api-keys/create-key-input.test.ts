/**
 * Regression: the create-key dialog sent the browser's time zone with every request, and the server checked
 * it, so an owner whose browser reports an unusual zone could not create a key without an expiry date (422
 * on a field they never filled). The zone must go along only with an expiry date.
 */
import { describe, expect, it } from "vitest";
import { createKeyInput } from "./create-key-input";

const fields = { name: "CRM", roleId: "role_1", workspaceId: "ws_1" };

describe("createKeyInput", () => {
  it("sends no time zone without an expiry date", () => {
    expect(createKeyInput({ ...fields, expiresOn: "" }, "Nowhere/City")).toEqual(fields);
  });

  it("sends the expiry date with the browser's time zone", () => {
    expect(createKeyInput({ ...fields, expiresOn: "2030-12-31" }, "Europe/Paris")).toEqual({
      ...fields,
      expiresOn: "2030-12-31",
      timeZone: "Europe/Paris",
    });
  });
});
