/**
 * The sealing engine's inputs and outputs. The caller (the sealing job) builds these from storage: the original
 * file bytes and the stored field values, never anything a browser assembled.
 *
 * Coordinates: PDF points (1/72 in), origin at the TOP-LEFT corner of the page as it is displayed (its CropBox,
 * after the page's /Rotate is applied), y growing downwards — the editor's convention, so positions are stored
 * exactly as placed on screen. `pageIndex` is 0-based.
 */
import type { Signer } from "@libpdf/core";
import type { TEvidenceLevel } from "./evidence/types";

export type TFieldBox = { pageIndex: number; x: number; y: number; width: number; height: number };

export type TSealField = TFieldBox &
  (
    | { type: "signature" | "initials"; image: Uint8Array; text?: undefined }
    | { type: "signature" | "initials"; text: string; image?: undefined }
    | { type: "date" | "text" | "name" | "email"; text: string }
    | { type: "checkbox"; checked: boolean }
  );

export type TSealDocumentInput = {
  id: string;
  name: string;
  /** The original upload, unchanged; never modified by the engine. */
  original: Uint8Array;
  fields: TSealField[];
};

export type TCertificateRecipient = {
  name: string;
  email: string;
  role: string;
  signingOrder: number;
  ipAddress: string | null;
  userAgent: string | null;
  consentedAt: Date | null;
  sentAt: Date | null;
  openedAt: Date | null;
  completedAt: Date | null;
  /** The recipient's IANA zone (reported by their browser): times print in it and in UTC; unknown → UTC only. */
  timeZone?: string;
  /** The signature as the recipient gave it: a PNG, or the typed text. */
  signatureImage?: Uint8Array;
  signatureText?: string;
  /**
   * How the signer was authenticated (issue 21), as printed: "Access code", "Email code to a…@example.com",
   * "Identity asserted by the sender: …"; absent → "Signing link only".
   */
  authentication?: string;
};

export type TCertificateEvent = { at: Date; type: string; actor: string; detail?: string };

export type TCertificateDocument = {
  name: string;
  pages: number;
  originalSha256: string;
  /** Known only for files sealed before this certificate was rendered (a file never contains its own hash). */
  sealedSha256?: string;
};

export type TCertificateData = {
  packageId: string;
  packageTitle: string;
  completedAt: Date | null;
  timeZone?: string;
  documents: TCertificateDocument[];
  recipients: TCertificateRecipient[];
  events: TCertificateEvent[];
  /** Hash of the last audit event (the head of the hash chain). */
  auditChainHead: string;
  /** SHA-256 of the merged sealed PDF, printed on the standalone certificate only. */
  mergedSha256?: string;
  /** Where anyone can check a file against this instance, e.g. https://sign.example.com/verify. */
  verifyUrl?: string;
  instanceName?: string;
  /**
   * The evidence the seals carry (issue 20), printed under "Evidence". `level`: the level this package's seals
   * aim at (B-LTA with a TSA configured, B-B without). `timestamps`: trusted times already obtained by files
   * sealed before this certificate was rendered (a file cannot print its own time-stamp's time), each with
   * the file it dates; `pending`: names of files sealed before this one whose time-stamp failed (added later).
   */
  evidence?: TCertificateEvidence;
};

export type TCertificateEvidence = {
  level: TEvidenceLevel;
  timestamps: { documentName?: string; time: Date; authority: string }[];
  pending?: string[];
};

export type TSigningIdentity = {
  signer: Signer;
  /** DER X.509 of the signing certificate. */
  certificateDer: Uint8Array;
  source: "pkcs12" | "instance";
  subject: string;
  fingerprintSha256: string;
  notAfter: Date;
};

export type TSealedFile = { bytes: Uint8Array; sha256: string; pages: number };
