/**
 * Reads the evidence a PDF carries from its bytes alone, checking every time-stamp token itself (imprint
 * recomputed from the file, TSA signature, critical timeStamping EKU) — for /verify. Never trusts a report.
 *
 * Level (EN 319 142-1 baseline; only valid time-stamps count):
 * - B-T: the seal has a signature time-stamp in its CMS, or a document time-stamp covers the seal (§5.4 lets a
 *   document time-stamp play the signature time-stamp's part: that is what an upgrade of a B-B file does);
 * - B-LT: and a DSS was added after that time-stamp (validation data for the seal and the time-stamp);
 * - B-LTA: and a further document time-stamp covers such a DSS.
 * Hostile input: a problem per token, never an exception for a malformed file (at worst level B-B, no stamps).
 */
import { createHash } from "node:crypto";
import { signedBytes } from "./strict-cms";
import { checkTimestampToken, readSignatureCms } from "./timestamp-token";
import type { TEvidenceInspection, TEvidenceLevel, TInspectedTimestamp } from "./types";

type TFound = { kind: "seal" | "document"; byteRange: [number, number, number, number]; contents: Uint8Array; end: number };

function latin1(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
}

/** Every signature dictionary (by its ByteRange), in file order, with its kind and the CMS in its Contents. */
export function findSignatures(bytes: Uint8Array): TFound[] {
  const text = latin1(bytes);
  const found: TFound[] = [];
  const re = /\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const byteRange = [1, 2, 3, 4].map((i) => Number(m![i])) as [number, number, number, number];
    const [a, b, c, d] = byteRange;
    if (a !== 0 || c < b || c + d > bytes.length || text[b] !== "<" || text[c - 1] !== ">") continue;
    const hex = text.slice(b + 1, c - 1);
    if (!/^[0-9a-fA-F]*$/.test(hex)) continue;
    // The dictionary around this ByteRange: from its object's start to its end.
    const start = text.lastIndexOf(" obj", m.index);
    const stop = text.indexOf("endobj", c);
    const dict = text.slice(start, stop === -1 ? c + 200 : stop);
    found.push({ kind: /\/Type\s*\/DocTimeStamp/.test(dict) ? "document" : "seal", byteRange, contents: new Uint8Array(Buffer.from(hex, "hex")), end: c + d });
  }
  return found.sort((x, y) => x.end - y.end);
}

/** A document time-stamp's token checked against the bytes its ByteRange covers. */
export function checkDocumentTimestamp(bytes: Uint8Array, stamp: TFound): ReturnType<typeof checkTimestampToken> {
  return checkTimestampToken(stamp.contents, { digest: createHash("sha256").update(signedBytes(bytes, stamp.byteRange)).digest() });
}

/** Offsets of every DSS dictionary (catalog /DSS) in the file. */
function dssOffsets(text: string): number[] {
  const out: number[] = [];
  const re = /\/Type\s*\/DSS\b/g;
  for (let m = re.exec(text); m; m = re.exec(text)) out.push(m.index);
  return out;
}

function countRefs(dict: string, key: string): number {
  const m = new RegExp(`/${key}\\s*\\[([^\\]]*)\\]`).exec(dict);
  return m ? (m[1]!.match(/\d+\s+\d+\s+R/g) ?? []).length : 0;
}

export async function inspectEvidence(bytes: Uint8Array): Promise<TEvidenceInspection> {
  const text = latin1(bytes);
  const signatures = findSignatures(bytes);
  // `covers(offset)`: whether a time-stamp's ByteRange includes that offset (everything but its own Contents).
  const timestamps: (TInspectedTimestamp & { end: number; covers: (offset: number) => boolean })[] = [];
  const seal = signatures.find((s) => s.kind === "seal");
  let sealTsValid = false;
  if (seal) {
    try {
      const { signatureValue, timestampToken } = readSignatureCms(seal.contents);
      if (timestampToken) {
        const check = checkTimestampToken(timestampToken, { digest: createHash("sha256").update(signatureValue).digest() });
        sealTsValid = check.ok;
        if (check.time) {
          timestamps.push({
            kind: "signature",
            time: check.time,
            authority: check.authority ?? "(unknown)",
            tsaCertificateNotAfter: check.tsaCertificateNotAfter ?? new Date(0),
            checks: check.checks,
            valid: check.ok,
            ...(check.problem ? { problem: check.problem } : {}),
            end: seal.end,
            covers: () => false,
          });
        }
      }
    } catch {
      // An unreadable seal CMS has no signature time-stamp.
    }
  }
  for (const s of signatures.filter((x) => x.kind === "document")) {
    const [, b, c, d] = s.byteRange;
    const check = checkDocumentTimestamp(bytes, s);
    timestamps.push({
      kind: "document",
      time: check.time ?? new Date(0),
      authority: check.authority ?? "(unknown)",
      tsaCertificateNotAfter: check.tsaCertificateNotAfter ?? new Date(0),
      checks: check.checks,
      valid: check.ok,
      ...(check.problem ? { problem: check.problem } : {}),
      end: s.end,
      covers: (o: number) => o < b || (o >= c && o < c + d),
    });
  }

  const dss = dssOffsets(text);
  let level: TEvidenceLevel = "B-B";
  if (seal) {
    const documentStamps = timestamps.filter((t) => t.kind === "document" && t.valid && t.end > seal.end);
    // The time-stamp that dates the signature: the CMS one, else the first document time-stamp over the seal.
    const signatureStampEnd = sealTsValid ? seal.end : documentStamps[0]?.end;
    if (signatureStampEnd !== undefined) {
      level = "B-T";
      const later = documentStamps.filter((t) => t.end > signatureStampEnd);
      // A DSS written after the signature's time-stamp (it holds that time-stamp's validation data).
      const dssAfter = dss.filter((o) => o > signatureStampEnd);
      if (dssAfter.length > 0) level = "B-LT";
      if (later.some((t) => dssAfter.some((o) => t.covers(o)))) level = "B-LTA";
    }
  }
  const lastDss = dss.at(-1);
  let dssSummary: TEvidenceInspection["dss"] = null;
  if (lastDss !== undefined) {
    const start = text.lastIndexOf(" obj", lastDss);
    const stop = text.indexOf("endobj", lastDss);
    const dict = text.slice(start, stop === -1 ? undefined : stop);
    dssSummary = { certs: countRefs(dict, "Certs"), ocsps: countRefs(dict, "OCSPs"), crls: countRefs(dict, "CRLs") };
  }
  return {
    level,
    timestamps: timestamps.sort((x, y) => x.end - y.end).map(({ end: _end, covers: _covers, ...t }) => t),
    dss: dssSummary,
  };
}
