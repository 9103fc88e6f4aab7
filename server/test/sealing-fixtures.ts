/** Fixtures for the sealing engine's tests and benchmark: originals, a PNG signature, an in-memory key store. */
import { execFileSync } from "node:child_process";
import { PDFDocument, StandardFonts } from "pdf-lib";
import type { TSigningKeyStore, TStoredSigningKey } from "@/server/pdf/load-or-create-signing-identity";
import type { TCertificateData, TSealField } from "@/server/pdf/types";
import { encodePng } from "./png";

/** An original of `pages` A4 pages with some text, optionally with a filled AcroForm text field on page 1. */
export async function makeOriginal(pages: number, options: { withForm?: boolean } = {}): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < pages; i++) {
    const page = doc.addPage([595.28, 841.89]);
    page.drawText(`Agreement page ${i + 1} of ${pages}`, { x: 50, y: 790, size: 14, font });
    for (let l = 0; l < 30; l++) page.drawText(`Clause ${i + 1}.${l + 1}: the parties agree to the terms.`, { x: 50, y: 750 - l * 20, size: 10, font });
  }
  if (options.withForm) {
    const form = doc.getForm();
    const field = form.createTextField("company");
    field.setText("ACME Form Value");
    field.addToPage(doc.getPage(0), { x: 50, y: 80, width: 200, height: 20 });
  }
  return doc.save();
}

/** A small RGBA PNG: a dark diagonal stroke on transparency, like a drawn signature. */
export function makeSignaturePng(width = 240, height = 80): Uint8Array {
  const onStroke = (x: number, y: number) => Math.abs(y - (height / 2 + Math.sin(x / 12) * height * 0.3)) < 2.5;
  return new Uint8Array(encodePng(width, height, (x, y) => [20, 30, 90, onStroke(x, y) ? 255 : 0]));
}

export function memorySigningKeyStore(): TSigningKeyStore & { rows: TStoredSigningKey[] } {
  const rows: TStoredSigningKey[] = [];
  return {
    rows,
    read: async () => rows[0] ?? null,
    insertIfAbsent: async (key) => {
      if (!rows[0]) rows.push(key);
      return rows[0]!;
    },
  };
}

export const NAMES = {
  latin: "Zoë Ångström-Müller",
  cyrillic: "Иван Петрович Сидоров",
  chinese: "王小明",
  japanese: "山田太郎 やまだ",
  arabic: "محمد عبد الله",
} as const;

/** Ten fields for one recipient on a document of `pages` pages: every type, spread over the pages. */
export function recipientFields(pages: number, name: string, email: string, png: Uint8Array, column: 0 | 1): TSealField[] {
  const x = 60 + column * 260;
  const p = (i: number) => i % pages;
  return [
    { type: "signature", image: png, pageIndex: p(pages - 1), x, y: 650, width: 200, height: 60 },
    { type: "signature", text: name, pageIndex: p(0), x, y: 600, width: 220, height: 30 },
    { type: "initials", text: name.slice(0, 2), pageIndex: p(1), x, y: 720, width: 60, height: 30 },
    { type: "initials", image: png, pageIndex: p(2), x, y: 720, width: 60, height: 30 },
    { type: "date", text: "2026-11-23", pageIndex: p(pages - 1), x, y: 720, width: 120, height: 20 },
    { type: "name", text: name, pageIndex: p(pages - 1), x, y: 750, width: 220, height: 20 },
    { type: "email", text: email, pageIndex: p(pages - 1), x, y: 775, width: 220, height: 20 },
    { type: "text", text: `Notes from ${name}: agreed without changes, subject to the annex. `.repeat(3), pageIndex: p(3), x, y: 100, width: 220, height: 60 },
    { type: "checkbox", checked: true, pageIndex: p(4), x, y: 200, width: 16, height: 16 },
    { type: "checkbox", checked: false, pageIndex: p(4), x, y: 230, width: 16, height: 16 },
  ];
}

export function certificateData(over: Partial<TCertificateData> = {}): TCertificateData {
  const t = (m: number) => new Date(Date.UTC(2026, 10, 23, 9, m, 0));
  return {
    packageId: "pkg_7Yq2ZkXb",
    packageTitle: "Master services agreement – ACME × Иванов & 王小明",
    completedAt: t(40),
    timeZone: "UTC",
    documents: [],
    recipients: [
      {
        name: NAMES.latin,
        email: "zoe@example.com",
        role: "SIGNER",
        signingOrder: 1,
        ipAddress: "203.0.113.7",
        userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
        consentedAt: t(5),
        sentAt: t(1),
        openedAt: t(4),
        completedAt: t(10),
        timeZone: "Europe/Paris",
        signatureImage: makeSignaturePng(),
      },
      {
        name: NAMES.arabic,
        email: "m.abdallah@example.com",
        role: "SIGNER",
        signingOrder: 2,
        ipAddress: "2001:db8::1",
        userAgent: "Mozilla/5.0 (X11; Linux x86_64)",
        consentedAt: t(30),
        sentAt: t(10),
        openedAt: t(29),
        completedAt: t(40),
        timeZone: "Asia/Riyadh",
        signatureText: NAMES.arabic,
      },
    ],
    events: Array.from({ length: 8 }, (_, i) => ({
      at: t(i * 5),
      type: i % 2 ? "SESSION_OPENED" : "SESSION_SENT",
      actor: i % 2 ? NAMES.cyrillic : "owner@example.com",
      detail: i === 3 ? `${NAMES.japanese} ${NAMES.chinese}` : undefined,
    })),
    auditChainHead: "9f2c1e7a5b3d4c6e8f0a1b2c3d4e5f60718293a4b5c6d7e8f9012345678abcd",
    verifyUrl: "http://localhost:3000/verify",
    instanceName: "Foliosign test instance",
    ...over,
  };
}

/** Runs a poppler/qpdf tool; returns its output and exit code instead of throwing on a non-zero exit. */
export function runTool(cmd: string, args: string[]): { code: number; out: string } {
  try {
    return { code: 0, out: execFileSync(cmd, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }) };
  } catch (error) {
    const e = error as { status?: number; stdout?: string; stderr?: string };
    return { code: e.status ?? 1, out: `${e.stdout ?? ""}${e.stderr ?? ""}` };
  }
}
