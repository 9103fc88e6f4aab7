/** Shared by the documents tests: a template row, PDFs, and the upload PUT called the way Next calls it. */
import { PDF } from "@libpdf/core";
import type { Db } from "@/server/db/client";
import { templates } from "@/server/db/schema";
import { newId } from "@/server/lib/ids";
import { uploadRoute } from "@/server/http/upload-route";
import type { TTestOrg } from "@/server/test/factories";

/** Templates are T1's; the documents tests only need the row. */
export async function createTestTemplate(db: Db, org: Pick<TTestOrg, "organisationId" | "workspaceId">, workspaceId = org.workspaceId) {
  const id = newId("tpl");
  await db.insert(templates).values({ id, organisationId: org.organisationId, workspaceId, name: "Contract" });
  return id;
}

export async function makePdf(pages: ("a4" | "letter")[] = ["a4"], protect = false): Promise<Buffer> {
  const pdf = PDF.create();
  for (const size of pages) pdf.addPage({ size });
  if (protect) pdf.setProtection({ userPassword: "open-me", ownerPassword: "owner" });
  return Buffer.from(await pdf.save());
}

export function tokenOf(uploadUrl: string): string {
  return new URL(uploadUrl).pathname.split("/").pop()!;
}

/** PUT {uploadUrl} through the route handler, with a body of bytes or a stream. */
export async function putUpload(uploadUrl: string, body: Uint8Array | ReadableStream<Uint8Array> | null) {
  const req = new Request(uploadUrl, { method: "PUT", body, duplex: "half" } as RequestInit);
  const res = await uploadRoute(req, { params: Promise.resolve({ token: tokenOf(uploadUrl) }) });
  return { status: res.status, body: (await res.json()) as { data?: Record<string, unknown>; error?: string } };
}
