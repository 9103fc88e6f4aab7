/**
 * Start-up check of the sealing chain: seal a one-page PDF with the identity, verify it, then flip one byte
 * inside the signed range and verify that the change is caught; and load the fonts, so that a machine without
 * the Noto packages says so at start rather than at the first seal. The caller logs the result.
 */
import { PDFDocument, StandardFonts } from "pdf-lib";
import { loadFontSet } from "./load-font-set";
import { signPdf } from "./sign-pdf";
import type { TSigningIdentity } from "./types";
import { verifySealed } from "./verify-sealed";

export type TSelfTestResult = {
  ok: boolean;
  signed: boolean;
  intact: boolean;
  signerMatches: boolean;
  tamperDetected: boolean;
  fontsLoaded: boolean;
  source: TSigningIdentity["source"];
  subject: string;
  fingerprintSha256: string;
  notAfter: string;
  ms: number;
  error?: string;
};

export async function selfTest(identity: TSigningIdentity): Promise<TSelfTestResult> {
  const started = performance.now();
  const base = {
    source: identity.source,
    subject: identity.subject,
    fingerprintSha256: identity.fingerprintSha256,
    notAfter: identity.notAfter.toISOString(),
  };
  let fontsError: string | undefined;
  try {
    loadFontSet();
  } catch (error) {
    fontsError = (error as Error).message;
  }
  try {
    const doc = await PDFDocument.create();
    const page = doc.addPage([300, 200]);
    page.drawText("Foliosign sealing self-test", { x: 20, y: 100, size: 14, font: await doc.embedFont(StandardFonts.Helvetica) });
    const sealed = await signPdf(await doc.save(), identity, { reason: "Self-test" });
    const result = await verifySealed(sealed.bytes, [identity.certificateDer]);
    const tampered = sealed.bytes.slice();
    // A byte in the middle of the first signed range (most of a small file is the signature's placeholder).
    const firstRange = /\/ByteRange\s*\[\s*0\s+(\d+)/.exec(Buffer.from(sealed.bytes).toString("latin1"));
    const at = Math.floor(Number(firstRange?.[1] ?? 40) / 2);
    tampered[at] = tampered[at]! ^ 0x01;
    const afterTamper = await verifySealed(tampered, [identity.certificateDer]);
    const tamperDetected = !afterTamper.intact;
    return {
      ok: result.signed && result.intact && result.signerMatches && tamperDetected && !fontsError,
      signed: result.signed,
      intact: result.intact,
      signerMatches: result.signerMatches,
      tamperDetected,
      fontsLoaded: !fontsError,
      ...base,
      ms: Math.round(performance.now() - started),
      ...(fontsError ? { error: fontsError } : {}),
    };
  } catch (error) {
    return {
      ok: false,
      signed: false,
      intact: false,
      signerMatches: false,
      tamperDetected: false,
      fontsLoaded: !fontsError,
      ...base,
      ms: Math.round(performance.now() - started),
      error: (error as Error).message,
    };
  }
}
