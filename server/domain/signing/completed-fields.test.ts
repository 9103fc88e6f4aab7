/**
 * Later signers see earlier signers' entries (issue 25, point 2): the signing view of a recipient carries, read-only
 * and as they will be sealed, the values of every other recipient of the package who has FINISHED — typed text,
 * drawn images (readable through the page's image route), merge-field text — with who filled them in; and never
 * a value of a recipient who has not finished (in a parallel package a co-signer's half-filled fields stay
 * invisible, their image is 404). Real route handlers on a real database.
 */
import { afterEach, describe, expect, it } from "vitest";
import { GET as viewRoute } from "@/app/api/app/sign/[token]/route";
import { POST as consentRoute } from "@/app/api/app/sign/[token]/consent/route";
import { POST as finishRoute } from "@/app/api/app/sign/[token]/finish/route";
import { PUT as fieldRoute } from "@/app/api/app/sign/[token]/fields/[fieldId]/route";
import { GET as getImageRoute } from "@/app/api/app/sign/[token]/fields/[fieldId]/image/route";
import { setClock } from "@/server/lib/clock";
import { useTestDb } from "@/server/test/db";
import { callJson, callRoute } from "@/server/test/http";
import { putFieldImage, sentTwoSignerPackage, signingToken, stripPng } from "@/server/test/signing-calls";

const t = useTestDb();
afterEach(() => setClock(undefined));

type TField = { id: string; type: string; value: string | null; readOnly: boolean; hasImage: boolean; valueKind: string | null; signer?: string };
type TView = { state: string; reason?: string; fields?: TField[]; completedFields?: TField[] };
type TBody<T> = { data: T; error?: string };

/** A sent two-signer package (tenant, landlord); `link` gives a session's signing token. */
async function setup(sequential: boolean) {
  setClock(() => new Date("2031-03-01T10:00:00Z"));
  const sent = await sentTwoSignerPackage(t.db, { sequential });
  return { link: (sessionId: string) => signingToken(sent.key, sent.packageId, sessionId), first: sent.first, second: sent.second };
}

const view = async (token: string) => (await callJson<TBody<TView>>(viewRoute, { params: { token } })).body.data;
const consent = (token: string) => callJson(consentRoute, { params: { token } });
const put = (token: string, fieldId: string, value: string | null) => callJson<TBody<TField>>(fieldRoute, { params: { token, fieldId }, body: { value } });
const getImage = (token: string, fieldId: string) => callRoute(getImageRoute, { params: { token, fieldId } });

const putImage = async (token: string, fieldId: string, bytes: Buffer) => (await putFieldImage(token, fieldId, bytes)).status;

describe("earlier signers' values on the signing page", () => {
  it("sequential: the second signer sees the first signer's typed signature and text, read-only, with their name", async () => {
    const s = await setup(true);
    const tenant = await s.link(s.first);
    await consent(tenant);
    const tenantFields = (await view(tenant)).fields!;
    const signature = tenantFields.find((f) => f.type === "signature")!;
    expect((await put(tenant, signature.id, "Tina Tenant")).status).toBe(200);
    expect((await view(tenant)).completedFields).toEqual([]);
    expect((await callJson<TBody<TView>>(finishRoute, { params: { token: tenant } })).body.data).toMatchObject({ state: "CLOSED", reason: "FINISHED" });

    const landlord = await s.link(s.second);
    const seen = await view(landlord);
    expect(seen.state).toBe("OPEN");
    // Their own fields only where they can act; the tenant's in completedFields, in reading order (y 10, then 60).
    expect(seen.fields!.map((f) => f.id)).not.toContain(signature.id);
    expect(seen.completedFields!.map((f) => [f.type, f.value, f.valueKind, f.readOnly, f.hasImage, f.signer])).toEqual([
      ["signature", "Tina Tenant", "typed", true, false, "Tina Tenant"],
      ["text", "Tina T.", "text", true, false, "Tina Tenant"],
    ]);
    // Read-only means read-only: the landlord's link cannot write the tenant's field.
    await consent(landlord);
    expect((await put(landlord, signature.id, "forged")).status).toBe(404);
  });

  it("parallel: nothing of a co-signer who has not finished (not even their image); everything once they have", async () => {
    const s = await setup(false);
    const tenant = await s.link(s.first);
    const landlord = await s.link(s.second);
    await consent(tenant);
    const signature = (await view(tenant)).fields!.find((f) => f.type === "signature")!;
    expect(await putImage(tenant, signature.id, stripPng())).toBe(200);

    expect((await view(landlord)).completedFields).toEqual([]);
    expect((await getImage(landlord, signature.id)).status).toBe(404);

    await callJson(finishRoute, { params: { token: tenant } });
    const completed = (await view(landlord)).completedFields!;
    expect(completed.map((f) => [f.id, f.valueKind, f.hasImage, f.signer])).toEqual([
      [signature.id, "drawn", true, "Tina Tenant"],
      [expect.any(String), "text", false, "Tina Tenant"],
    ]);
    const image = await getImage(landlord, signature.id);
    expect(image.status).toBe(200);
    expect(Buffer.from(await image.arrayBuffer()).equals(stripPng())).toBe(true);
  });
});
