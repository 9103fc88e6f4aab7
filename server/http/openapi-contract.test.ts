/**
 * What a generated client or a validating proxy (Prism) needs from the OpenAPI document beyond the operations
 * (issue 25, point 1): the upload URL that adding a document hands out is a path of the document, with its own
 * security (the token in the path, no bearer key), and its real answer is the declared shape; and a POST that
 * declares no body accepts an empty JSON object — declared in the document, and accepted by the real route.
 */
import { describe, expect, it } from "vitest";
import { GET as openApiRoute } from "@/app/api-reference/openapi.json/route";
import * as templateDocuments from "@/app/api/v1/templates/[templateId]/documents/route";
import { POST as createFromTemplateRoute } from "@/app/api/v1/packages/from-template/route";
import { POST as holdRoute } from "@/app/api/v1/packages/[packageId]/hold/route";
import { POST as resumeRoute } from "@/app/api/v1/packages/[packageId]/resume/route";
import { createTestTemplate, makePdf } from "@/server/domain/documents/test-support/fixtures";
import { createActiveTemplate } from "@/server/domain/packages/test-support/fixtures";
import { ZTemplateDocument } from "@/server/domain/templates/schemas";
import { useTestDb } from "@/server/test/db";
import { createTestKey, createTestOrg } from "@/server/test/factories";
import { callJson } from "@/server/test/http";
import { publicOperations } from "./operations";
import { putUpload } from "./test-support/put-upload";

const t = useTestDb();

type TSchema = { $ref?: string; type?: string; properties?: Record<string, TSchema>; additionalProperties?: boolean; format?: string };
type TOp = {
  operationId: string;
  security?: unknown[];
  tags?: string[];
  parameters?: { name: string; in: string; required?: boolean }[];
  requestBody?: { required?: boolean; content: Record<string, { schema: TSchema }> };
  responses: Record<string, { content?: Record<string, { schema: TSchema }> }>;
};
type TDoc = { servers: { url: string }[]; paths: Record<string, Record<string, TOp>>; components: { schemas: Record<string, TSchema> } };

async function openApiDocument(): Promise<TDoc> {
  return (await (await openApiRoute()).json()) as TDoc;
}

describe("the upload URL in the contract", () => {
  it("declares PUT /uploads/{token}: no bearer key, the token in the path, raw bytes in, { data: TemplateDocument } out", async () => {
    const doc = await openApiDocument();
    const put = doc.paths["/uploads/{token}"]?.put;
    expect(put).toBeDefined();
    expect(put!.operationId).toBe("uploadDocument");
    expect(put!.security).toEqual([]);
    expect(put!.tags).toEqual(["Uploads"]);
    expect(put!.parameters).toEqual([expect.objectContaining({ name: "token", in: "path", required: true })]);
    expect(put!.requestBody?.required).toBe(true);
    for (const media of Object.values(put!.requestBody!.content)) expect(media.schema).toEqual({ type: "string", format: "binary" });
    expect(Object.keys(put!.requestBody!.content)).toContain("application/pdf");
    expect(put!.responses["200"]?.content?.["application/json"]?.schema.properties?.data).toEqual({ $ref: "#/components/schemas/TemplateDocument" });
    for (const status of ["404", "410", "413", "422"])
      expect(put!.responses[status]?.content?.["application/json"]?.schema).toEqual({ $ref: "#/components/schemas/Error" });
  });

  it("the uploadUrl handed out is that path on the document's server, and the PUT answers the declared document shape", async () => {
    const doc = await openApiDocument();
    const org = await createTestOrg(t.db);
    const key = (await createTestKey(t.db, org)).value;
    const templateId = await createTestTemplate(t.db, org);
    const pdf = await makePdf(["a4"]);
    const added = await callJson<{ data: { document: { id: string }; uploadUrl: string } }>(templateDocuments.POST, {
      key,
      params: { templateId },
      body: { name: "Contract", fileSize: pdf.length },
    });
    expect(added.status).toBe(201);
    const url = new URL(added.body.data.uploadUrl);
    expect(url.origin).toBe(new URL(doc.servers[0]!.url).origin);
    expect(url.pathname).toMatch(/^\/uploads\/[A-Za-z0-9_-]{43}$/);

    const put = await putUpload(added.body.data.uploadUrl, pdf);
    expect(put.status).toBe(200);
    // Exactly the declared schema: no field missing, none extra.
    const uploaded = ZTemplateDocument.strict().parse(put.body.data);
    expect(uploaded).toMatchObject({ id: added.body.data.document.id, uploadState: "UPLOADED", pageCount: 1 });
  });
});

describe("an empty JSON body where none is declared", () => {
  it("every POST without a body of its own declares an optional body that is exactly an empty object", async () => {
    const doc = await openApiDocument();
    const bodiless = publicOperations.filter((op) => op.method === "POST" && !op.body);
    expect(bodiless.map((op) => op.operationId)).toEqual(expect.arrayContaining(["holdPackage", "resumePackage", "rotateWebhookSecret"]));
    for (const op of bodiless) {
      const declared = doc.paths[op.path]?.post?.requestBody;
      expect(declared?.required, op.operationId).toBe(false);
      expect(declared?.content["application/json"]?.schema, op.operationId).toEqual({ $ref: "#/components/schemas/NoBody" });
    }
    expect(doc.components.schemas.NoBody).toMatchObject({ type: "object", properties: {}, additionalProperties: false });
  });

  it("hold and resume answer 200 to a client that sends {}", async () => {
    const org = await createTestOrg(t.db);
    const key = (await createTestKey(t.db, org)).value;
    const { templateId } = await createActiveTemplate(t.db, org);
    const created = await callJson<{ data: { id: string } }>(createFromTemplateRoute, {
      key,
      body: {
        templateId,
        title: "Lease 4B",
        status: "sent",
        recipients: [
          { email: "tenant@example.com", roleIndex: 0 },
          { email: "landlord@example.com", roleIndex: 1 },
        ],
      },
    });
    expect(created.status).toBe(201);
    const params = { packageId: created.body.data.id };
    const held = await callJson<{ data: { status: string } }>(holdRoute, { key, params, body: {} });
    expect(held.status).toBe(200);
    expect(held.body.data.status).toBe("ON_HOLD");
    const resumed = await callJson<{ data: { status: string } }>(resumeRoute, { key, params, body: {} });
    expect(resumed.status).toBe(200);
    expect(resumed.body.data.status).toBe("IN_PROGRESS");
  });
});
