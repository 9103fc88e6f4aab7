/**
 * The client's TYPES as an integrator meets them (integrator audit). Regressions protected:
 *
 * - A request property with a `default` in the OpenAPI document was generated as required (openapi-typescript's
 *   `defaultNonNullable`), so `POST /api/v1/packages` with `{ title, recipients }` did not compile without
 *   `sequential`; likewise AddDocument.contentType, CreateTemplateField.required, reminders' `max` and a sender
 *   question's `required`. An answer's defaulted fields must stay required (they are always there).
 * - The upload body (`format: binary`) was typed `string`, so a Buffer, Uint8Array or Blob needed a cast.
 * - `send` took no `idempotencyKey`.
 *
 * `integratorCode` below is never run: the test compiles this very file with the repository's compiler options
 * and expects no diagnostic (`npx tsc --noEmit -p .` checks it too). The calls themselves are run against the
 * API in client.test.ts.
 */
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import type { TFoliosignClient } from "../src";

async function integratorCode(client: TFoliosignClient, ids: { packageId: string; templateId: string; documentId: string }, pdf: Buffer) {
  const { api } = client;
  const { packageId, templateId, documentId } = ids;

  // Requests: a property with a default may be left out.
  await api.POST("/api/v1/packages", { body: { title: "Lease", recipients: [{ email: "tina@example.com" }] } });
  await api.POST("/api/v1/packages/{packageId}/documents", { params: { path: { packageId } }, body: { name: "lease.pdf", fileSize: pdf.length } });
  await api.POST("/api/v1/templates/{templateId}/documents", { params: { path: { templateId } }, body: { name: "nda.pdf", fileSize: pdf.length } });
  await api.POST("/api/v1/templates/{templateId}/fields", {
    params: { path: { templateId } },
    body: { documentId, roleIndex: 0, type: "signature", page: 1, x: 10, y: 10, width: 100, height: 30 },
  });
  await api.PATCH("/api/v1/packages/{packageId}", { params: { path: { packageId } }, body: { reminders: { firstAfterDays: 2, repeatEveryDays: 3 } } });
  await api.PATCH("/api/v1/packages/{packageId}", { params: { path: { packageId } }, body: { reminders: null } });
  await api.PATCH("/api/v1/templates/{templateId}", { params: { path: { templateId } }, body: { questions: [{ key: "term", label: "Lease term" }] } });

  // Answers: what is always there stays required.
  const pkg = await client.getPackage(packageId);
  const sequential: boolean = pkg.sequential;
  const max: number | undefined = pkg.reminders === null ? undefined : pkg.reminders.max;
  const template = (await api.GET("/api/v1/templates/{templateId}", { params: { path: { templateId } } })).data!.data;
  const required: boolean[] = template.questions.map((q) => q.required);
  const fieldRequired: boolean[] = template.fields.map((f) => f.required);

  // Bytes: a Buffer, a Uint8Array, an ArrayBuffer or a Blob, to the helper or to the typed PUT.
  const document = await client.upload("https://sign.example.com/uploads/token", pdf);
  const uploadState: "AWAITING_UPLOAD" | "UPLOADED" = document.uploadState;
  await client.upload("https://sign.example.com/uploads/token", new Uint8Array(pdf), "application/pdf");
  await client.upload("https://sign.example.com/uploads/token", new Uint8Array(pdf).buffer);
  await client.upload("https://sign.example.com/uploads/token", new Blob([new Uint8Array(pdf)], { type: "application/pdf" }));
  await api.PUT("/uploads/{token}", { params: { path: { token: "token" } }, body: pdf, headers: { "content-type": "application/pdf" } });

  // send, like createFromTemplate, takes an Idempotency-Key.
  await client.send(packageId, {}, { idempotencyKey: "send-1" });
  await client.createFromTemplate({ templateId, title: "Lease", recipients: [] }, { idempotencyKey: "create-1" });
  return { sequential, max, required, fieldRequired, uploadState };
}

describe("the client's types", () => {
  it("compile an integrator's calls: defaulted request properties optional, answers' fields required, bytes as upload bodies", () => {
    const file = path.resolve("clients/typescript/test/request-types.test.ts");
    const config = ts.getParsedCommandLineOfConfigFile(path.resolve("tsconfig.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
    expect(config).toBeDefined();
    const program = ts.createProgram({ rootNames: [file], options: { ...config!.options, incremental: false, noEmit: true } });
    const source = program.getSourceFile(file)!;
    const diagnostics = [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
    const host = { getCanonicalFileName: (f: string) => f, getCurrentDirectory: () => process.cwd(), getNewLine: () => "\n" };
    expect(ts.formatDiagnostics(diagnostics, host)).toBe("");
    expect(typeof integratorCode).toBe("function");
    // A TypeScript program over the DOM, Node and vitest types: seconds, more on a busy machine.
  }, 120_000);
});
