import { expect, type APIRequestContext } from "@playwright/test";

/**
 * The public API (/api/v1) with an API key, as an integrator calls it: each call checks the status it answered
 * and returns the body's `data` (or its bytes).
 */
export function keyApi(request: APIRequestContext, key: string) {
  const headers = { authorization: `Bearer ${key}` };
  return {
    async post<T>(path: string, data: unknown, expected = [200, 201]): Promise<T> {
      const res = await request.post(`/api/v1${path}`, { headers, data });
      expect(expected, `${path}: ${await res.text()}`).toContain(res.status());
      return ((await res.json()) as { data: T }).data;
    },
    /** The status a POST answers, whatever it is (for the refusals). */
    async status(path: string, data: unknown): Promise<number> {
      return (await request.post(`/api/v1${path}`, { headers, data })).status();
    },
    async get<T>(path: string): Promise<T> {
      const res = await request.get(`/api/v1${path}`, { headers });
      expect(res.status(), path).toBe(200);
      return ((await res.json()) as { data: T }).data;
    },
    async bytes(path: string): Promise<Buffer> {
      const res = await request.get(`/api/v1${path}`, { headers });
      expect(res.status(), path).toBe(200);
      return Buffer.from(await res.body());
    },
    async patch(path: string, data: unknown): Promise<void> {
      const res = await request.patch(`/api/v1${path}`, { headers, data });
      expect(res.status(), `${path}: ${await res.text()}`).toBe(200);
    },
  };
}

export type TKeyApi = ReturnType<typeof keyApi>;

type TTemplateField = {
  roleIndex: number;
  type: "signature" | "text" | "checkbox";
  label?: string;
  required?: boolean;
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
};

/**
 * An ACTIVE template made through the API: `pdf` uploaded as its one document, `roles` added in order, `fields`
 * placed on that document. Returns the template's id.
 */
export async function activeTemplate(
  api: TKeyApi,
  request: APIRequestContext,
  template: { name: string; documentName: string; pdf: Buffer; roles: string[]; fields: TTemplateField[] },
): Promise<string> {
  const { id } = await api.post<{ id: string }>("/templates", { name: template.name });
  const added = await api.post<{ document: { id: string }; uploadUrl: string }>(`/templates/${id}/documents`, {
    name: template.documentName,
    fileSize: template.pdf.length,
    contentType: "application/pdf",
  });
  expect((await request.put(added.uploadUrl, { data: template.pdf, headers: { "content-type": "application/pdf" } })).status()).toBe(200);
  for (const name of template.roles) await api.post(`/templates/${id}/roles`, { name });
  for (const field of template.fields) await api.post(`/templates/${id}/fields`, { documentId: added.document.id, ...field });
  await api.patch(`/templates/${id}`, { status: "ACTIVE" });
  return id;
}

/** Each role's signature and text field side by side (role 0 at x 56, role 1 at x 320) on `page`. */
export function signatureAndTextPerRole(
  page: number,
  labels: [string, string],
  at: { signatureY: number; signatureHeight: number; textY: number },
): TTemplateField[] {
  return labels.flatMap((label, roleIndex) => {
    const x = roleIndex === 0 ? 56 : 320;
    return [
      { roleIndex, type: "signature" as const, page, x, y: at.signatureY, width: 200, height: at.signatureHeight },
      { roleIndex, type: "text" as const, label, page, x, y: at.textY, width: 200, height: 24 },
    ];
  });
}

/** The signing page's path (/sign/…) for a recipient session, from the signing-URL operation. */
export async function signingPathFor(api: TKeyApi, packageId: string, sessionId: string): Promise<string> {
  const { url } = await api.post<{ url: string }>(`/packages/${packageId}/signing-url`, { sessionId });
  return new URL(url).pathname;
}

type TRecipient = { email: string; name: string; roleIndex: number };

/** A package from the template with these recipients, sent at once (`status: "sent"`); returns the package. */
export function sentFromTemplate<T>(api: TKeyApi, templateId: string, title: string, recipients: TRecipient[]): Promise<T> {
  return api.post<T>("/packages/from-template", { templateId, title, status: "sent", recipients });
}
