/**
 * Later signers see earlier signers' entries (issue 25, point 2): the signing view of a recipient carries, read-only
 * and as they will be sealed, the values of every other recipient of the package who has FINISHED — typed text,
 * drawn images (readable through the page's image route), merge-field text — with who filled them in; and never
 * a value of a recipient who has not finished (in a parallel package a co-signer's half-filled fields stay
 * invisible, their image is 404). Real route handlers on a real database.
 */
import { deflateSync, crc32 } from "node:zlib";
import { Readable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { POST as createFromTemplateRoute } from "@/app/api/v1/packages/from-template/route";
import { POST as sendRoute } from "@/app/api/v1/packages/[packageId]/send/route";
import { POST as signingUrlRoute } from "@/app/api/v1/packages/[packageId]/signing-url/route";
import { GET as viewRoute } from "@/app/api/app/sign/[token]/route";
import { POST as consentRoute } from "@/app/api/app/sign/[token]/consent/route";
import { POST as finishRoute } from "@/app/api/app/sign/[token]/finish/route";
import { PUT as fieldRoute } from "@/app/api/app/sign/[token]/fields/[fieldId]/route";
import { GET as getImageRoute, PUT as imageRoute } from "@/app/api/app/sign/[token]/fields/[fieldId]/image/route";
import { createActiveTemplate } from "@/server/domain/packages/test-support/fixtures";
import { CLIENT_ADDRESS_HEADER } from "@/server/http/steps/client-address";
import { setClock } from "@/server/lib/clock";
import { useTestDb } from "@/server/test/db";
import { createTestKey, createTestOrg } from "@/server/test/factories";
import { callJson, callRoute } from "@/server/test/http";
import { getFileStore } from "@/server/storage/get-file-store";

const t = useTestDb();
afterEach(() => setClock(undefined));

type TField = { id: string; type: string; value: string | null; readOnly: boolean; hasImage: boolean; valueKind: string | null; signer?: string };
type TView = { state: string; reason?: string; fields?: TField[]; completedFields?: TField[] };
type TBody<T> = { data: T; error?: string };

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([head, body, crc]);
}

/** A real 2×1 RGBA PNG. */
function png(): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(2, 0);
  ihdr.writeUInt32BE(1, 4);
  ihdr[8] = 8;
  ihdr[9] = 6;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(Buffer.alloc(9), { level: 0 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

async function setup(sequential: boolean) {
  setClock(() => new Date("2031-03-01T10:00:00Z"));
  const org = await createTestOrg(t.db);
  const key = (await createTestKey(t.db, org)).value;
  const tpl = await createActiveTemplate(t.db, org);
  await (await getFileStore()).put("files/lease", Readable.from([Buffer.from("%PDF-1.7\n%test\n")]), { contentType: "application/pdf" });
  const created = await callJson<TBody<{ id: string }>>(createFromTemplateRoute, {
    key,
    body: {
      templateId: tpl.templateId,
      title: "Lease 4B",
      sequential,
      recipients: [
        { email: "tenant@example.com", name: "Tina Tenant", roleIndex: 0 },
        { email: "landlord@example.com", name: "Lars Landlord", roleIndex: 1 },
      ],
      mergeFields: { customerName: "Tina T." },
    },
  });
  const packageId = created.body.data.id;
  const sent = await callJson<TBody<{ recipientSessions: { id: string }[] }>>(sendRoute, { key, params: { packageId }, body: {} });
  const [first, second] = sent.body.data.recipientSessions;
  const link = async (sessionId: string) =>
    (await callJson<TBody<{ url: string }>>(signingUrlRoute, { key, params: { packageId }, body: { sessionId } })).body.data.url.split("/sign/")[1]!;
  return { link, first: first!.id, second: second!.id };
}

const view = async (token: string) => (await callJson<TBody<TView>>(viewRoute, { params: { token } })).body.data;
const consent = (token: string) => callJson(consentRoute, { params: { token } });
const put = (token: string, fieldId: string, value: string | null) => callJson<TBody<TField>>(fieldRoute, { params: { token, fieldId }, body: { value } });
const getImage = (token: string, fieldId: string) => callRoute(getImageRoute, { params: { token, fieldId } });

async function putImage(token: string, fieldId: string, bytes: Buffer) {
  const req = new Request(new URL(`/api/app/sign/${token}/fields/${fieldId}/image?kind=drawn`, "http://localhost:3000"), {
    method: "PUT",
    headers: { "content-type": "image/png", [CLIENT_ADDRESS_HEADER]: "127.0.0.1", "sec-fetch-site": "same-origin" },
    body: new Uint8Array(bytes),
  });
  return (await imageRoute(req, { params: Promise.resolve({ token, fieldId }) })).status;
}

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
    expect(await putImage(tenant, signature.id, png())).toBe(200);

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
    expect(Buffer.from(await image.arrayBuffer()).equals(png())).toBe(true);
  });
});
