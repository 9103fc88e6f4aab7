/**
 * The certificate of completion as an unsigned PDF (A4, one or more pages): the package, each document with its
 * hashes, each recipient with where, when and how they signed, the event trail and the audit chain's head.
 * The caller appends it to a sealed document or signs it alone (signPdf).
 *
 * Hashes: a file cannot contain its own SHA-256. Every certificate prints each original's hash; a document's
 * sealed hash is printed wherever that sealed file already exists (the merged PDF's certificate and the
 * standalone certificate); the merged file's hash only on the standalone certificate. The instance records every
 * sealed file's hash, and its /verify page matches an uploaded file against them.
 */
import { PDFDocument, rgb, type PDFImage, type PDFPage } from "pdf-lib";
import { createTextKit, type TTextKit } from "./create-text-kit";
import { formatUtc } from "@/server/lib/zoned-time";
import { formatTime, formatZonedTime } from "./format-time";
import { handwritingFor, type THandwriting } from "./handwriting-font";
import type { TCertificateData } from "./types";

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 48;
const CONTENT = A4.width - 2 * MARGIN;
const TEXT = rgb(0.1, 0.1, 0.12);
const MUTED = rgb(0.38, 0.4, 0.45);
const RULE = rgb(0.82, 0.84, 0.87);
const LABEL_WIDTH = 118;

type TFlow = {
  page: PDFPage;
  y: number;
  ensure(height: number): void;
  text(text: string, options?: { size?: number; bold?: boolean; color?: ReturnType<typeof rgb>; indent?: number; gapAfter?: number }): void;
  row(label: string, value: string, options?: { mono?: boolean }): void;
  rule(): void;
  space(height: number): void;
};

function createFlow(doc: PDFDocument, kit: TTextKit): TFlow {
  const flow = {} as TFlow;
  const newPage = () => {
    flow.page = doc.addPage([A4.width, A4.height]);
    flow.y = A4.height - MARGIN;
  };
  const draw = (text: string, x: number, size: number, bold: boolean, color: ReturnType<typeof rgb>) => {
    for (const run of kit.layout(text, size, { bold }).runs) {
      flow.page.drawText(run.text, { x: x + run.offset, y: flow.y - size, size, font: run.font, color });
    }
  };
  flow.ensure = (height) => {
    if (flow.y - height < MARGIN + 24) newPage();
  };
  flow.text = (text, o = {}) => {
    const size = o.size ?? 9.5;
    const indent = o.indent ?? 0;
    for (const line of kit.wrap(text, size, CONTENT - indent, { bold: o.bold })) {
      flow.ensure(size * 1.35);
      draw(line, MARGIN + indent, size, o.bold ?? false, o.color ?? TEXT);
      flow.y -= size * 1.35;
    }
    flow.y -= o.gapAfter ?? 0;
  };
  flow.row = (label, value) => {
    const size = 9;
    const lines = kit.wrap(value || "—", size, CONTENT - LABEL_WIDTH);
    flow.ensure(size * 1.4 * Math.min(lines.length, 3));
    draw(label, MARGIN, size, false, MUTED);
    for (const line of lines) {
      flow.ensure(size * 1.4);
      draw(line, MARGIN + LABEL_WIDTH, size, false, TEXT);
      flow.y -= size * 1.4;
    }
  };
  flow.rule = () => {
    flow.ensure(12);
    flow.y -= 5;
    flow.page.drawLine({ start: { x: MARGIN, y: flow.y }, end: { x: A4.width - MARGIN, y: flow.y }, thickness: 0.6, color: RULE });
    flow.y -= 7;
  };
  flow.space = (h) => {
    flow.y -= h;
  };
  newPage();
  return flow;
}

function heading(flow: TFlow, text: string) {
  flow.ensure(40);
  flow.space(6);
  flow.text(text, { size: 12.5, bold: true, gapAfter: 2 });
  flow.rule();
}

function yesNo(at: Date | null, zone?: string): string {
  return at ? `Yes, agreed to sign electronically at ${formatZonedTime(at, zone)}` : "Not recorded";
}

/**
 * The "Evidence" rows (issue 20): the level the seals aim at and each trusted time already known, e.g.
 * "Evidence level: PAdES B-LTA; trusted time 2026-11-25 14:02:11 UTC from CN=…", or, without a TSA,
 * "No trusted time-stamp: sealed with this server's clock (PAdES B-B)".
 */
function evidenceLines(data: TCertificateData): [string, string][] {
  const e = data.evidence;
  if (!e) return [];
  if (e.level === "B-B") return [["Evidence", "No trusted time-stamp: sealed with this server's clock (PAdES B-B)"]];
  const rows: [string, string][] = [
    ["Evidence", `Evidence level: PAdES ${e.level} (targeted); each sealed file receives its own trusted time-stamp when sealed`],
  ];
  for (const t of e.timestamps) {
    rows.push([t.documentName ?? "Trusted time", `Evidence level: PAdES ${e.level}; trusted time ${formatUtc(t.time)} from ${t.authority}`]);
  }
  for (const name of e.pending ?? []) rows.push([name, "No trusted time-stamp yet (time-stamping authority unavailable), added later"]);
  return rows;
}

export async function renderCertificate(data: TCertificateData): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.setTitle(`Certificate of completion – ${data.packageTitle}`);
  doc.setProducer("Foliosign");
  doc.setCreator("Foliosign");
  const zone = data.timeZone ?? "UTC";

  const footer = (p: number, n: number) => `Certificate of completion · ${data.packageId} · page ${p} of ${n}`;
  const declared: string[] = [
    "Certificate of completion",
    "Documents Recipients Event trail Audit trail Signature Package Completed Verify at Instance",
    "Name Email Role Signing order IP address User agent Consent Sent Opened Completed Pages Original SHA-256",
    "Sealed SHA-256 Merged PDF SHA-256 Hash-chain head Not recorded (no signature recorded) — · 0123456789:+-()/,.",
    "recorded by the instance when sealed; check a file at",
    "Yes, agreed to sign electronically at GMT UTC of page This certificate is part of the sealed file",
    "(time zone not recorded) Time zone",
    "Authentication Signing link only",
    "Evidence Evidence level: PAdES B-B B-T B-LT B-LTA (targeted); trusted time from No trusted time-stamp: sealed with this server's clock",
    "each sealed file receives its own trusted time-stamp when sealed; no trusted time-stamp yet (time-stamping authority unavailable), added later",
    ...evidenceLines(data).flat(),
    footer(999, 999),
    data.packageTitle,
    data.packageId,
    data.instanceName ?? "",
    data.verifyUrl ?? "",
    data.auditChainHead,
    data.mergedSha256 ?? "",
    zone,
    ...data.documents.flatMap((d) => [d.name, d.originalSha256, d.sealedSha256 ?? "", String(d.pages)]),
    ...data.recipients.flatMap((r) => [
      r.name,
      r.email,
      r.role,
      r.ipAddress ?? "",
      r.userAgent ?? "",
      r.signatureText ?? "",
      r.timeZone ?? "",
      r.authentication ?? "",
      ...[r.consentedAt, r.sentAt, r.openedAt, r.completedAt].map((at) => formatZonedTime(at, r.timeZone)),
    ]),
    ...data.events.flatMap((e) => [e.type, e.actor, e.detail ?? "", formatTime(e.at, zone)]),
  ];
  const kit = await createTextKit(doc, declared, { bold: true });
  const flow = createFlow(doc, kit);

  flow.text("Certificate of completion", { size: 20, bold: true, gapAfter: 4 });
  flow.text(data.packageTitle, { size: 13, gapAfter: 6 });
  flow.row("Package", data.packageId);
  flow.row("Completed", formatTime(data.completedAt, zone));
  if (data.instanceName) flow.row("Instance", data.instanceName);
  if (data.verifyUrl) flow.row("Verify at", data.verifyUrl);

  if (data.evidence) {
    heading(flow, "Evidence");
    for (const [label, value] of evidenceLines(data)) flow.row(label, value);
  }

  heading(flow, "Documents");
  const notYet = data.verifyUrl ? `recorded by the instance when sealed; check a file at ${data.verifyUrl}` : "recorded by the instance when sealed";
  data.documents.forEach((d, i) => {
    flow.ensure(60);
    flow.text(`${i + 1}. ${d.name}`, { bold: true, size: 10 });
    flow.row("Pages", String(d.pages));
    flow.row("Original SHA-256", d.originalSha256);
    flow.row("Sealed SHA-256", d.sealedSha256 ?? notYet);
    flow.space(4);
  });
  if (data.mergedSha256) flow.row("Merged PDF SHA-256", data.mergedSha256);

  heading(flow, "Recipients");
  const images = new Map<number, PDFImage>();
  for (const [i, r] of data.recipients.entries()) {
    if (!r.signatureImage) continue;
    try {
      images.set(i, await doc.embedPng(r.signatureImage));
    } catch {
      // An unreadable image is shown as missing rather than failing the whole certificate.
    }
  }
  // A typed signature in the handwriting face, as on the page and in the stamped field (Noto when Caveat lacks a character).
  const hands = new Map<number, THandwriting>();
  for (const [i, r] of data.recipients.entries()) {
    const hand = !r.signatureImage && r.signatureText ? await handwritingFor(doc, r.signatureText) : null;
    if (hand) hands.set(i, hand);
  }
  const ordered = [...data.recipients.entries()].sort(([, a], [, b]) => a.signingOrder - b.signingOrder);
  for (const [i, r] of ordered) {
    flow.ensure(197);
    flow.text(r.name, { bold: true, size: 10.5 });
    flow.row("Email", r.email);
    flow.row("Role", r.role);
    flow.row("Signing order", String(r.signingOrder));
    flow.row("IP address", r.ipAddress ?? "Not recorded");
    flow.row("User agent", r.userAgent ?? "Not recorded");
    flow.row("Authentication", r.authentication ?? "Signing link only");
    flow.row("Time zone", r.timeZone ?? "Not recorded (times in UTC)");
    flow.row("Consent", yesNo(r.consentedAt, r.timeZone));
    flow.row("Sent", formatZonedTime(r.sentAt, r.timeZone));
    flow.row("Opened", formatZonedTime(r.openedAt, r.timeZone));
    flow.row("Completed", formatZonedTime(r.completedAt, r.timeZone));
    const image = images.get(i);
    const boxH = 46;
    flow.ensure(boxH + 8);
    const top = flow.y - 2;
    const x = MARGIN + LABEL_WIDTH;
    flow.page.drawRectangle({ x, y: top - boxH, width: 200, height: boxH, borderColor: RULE, borderWidth: 0.6 });
    for (const run of kit.layout("Signature", 9).runs) {
      flow.page.drawText(run.text, { x: MARGIN + run.offset, y: top - 11, size: 9, font: run.font, color: MUTED });
    }
    if (image) {
      const scale = Math.min(192 / image.width, (boxH - 8) / image.height);
      flow.page.drawImage(image, { x: x + 4, y: top - boxH + 4, width: image.width * scale, height: image.height * scale });
    } else if (hands.has(i)) {
      const hand = hands.get(i)!;
      const size = Math.min(18, (18 * 190) / Math.max(1, hand.width(18)));
      let offset = 0;
      for (const run of hand.runs) {
        flow.page.drawText(run.text, { x: x + 5 + offset, y: top - boxH / 2 - size * 0.35, size, font: run.font, color: TEXT });
        offset += run.font.widthOfTextAtSize(run.text, size);
      }
    } else {
      const sig = r.signatureText ?? "(no signature recorded)";
      const size = Math.min(16, (16 * 190) / Math.max(1, kit.width(sig, 16)));
      for (const run of kit.layout(sig, size).runs) {
        flow.page.drawText(run.text, { x: x + 5 + run.offset, y: top - boxH / 2 - size * 0.35, size, font: run.font, color: TEXT });
      }
    }
    flow.y = top - boxH - 6;
    flow.rule();
  }

  heading(flow, "Event trail");
  for (const e of data.events) {
    flow.ensure(14);
    flow.text(`${formatTime(e.at, zone)} · ${e.type} · ${e.actor}${e.detail ? ` · ${e.detail}` : ""}`, { size: 8.5 });
  }

  heading(flow, "Audit trail");
  flow.row("Hash-chain head", data.auditChainHead);

  const pages = doc.getPages();
  for (const [i, page] of pages.entries()) {
    for (const run of kit.layout(footer(i + 1, pages.length), 7.5).runs) {
      page.drawText(run.text, { x: MARGIN + run.offset, y: MARGIN / 2, size: 7.5, font: run.font, color: MUTED });
    }
  }
  return doc.save();
}
