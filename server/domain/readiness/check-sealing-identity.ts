import { X509Certificate } from "node:crypto";
import { check, reason, type TReadinessCheck, type TReadinessContext } from "./types";

const TITLE = "Sealing identity";
const DAY = 86_400_000;
/** A certificate this close to its end is a warning: time to get the next one. */
export const EXPIRY_WARNING_DAYS = 30;

const CURVES: Record<string, string> = { prime256v1: "P-256", secp384r1: "P-384", secp521r1: "P-521" };

function keyType(x509: X509Certificate): string {
  const key = x509.publicKey;
  const details = key.asymmetricKeyDetails;
  if (key.asymmetricKeyType === "ec") return `EC ${CURVES[details?.namedCurve ?? ""] ?? details?.namedCurve ?? ""}`.trim();
  if (key.asymmetricKeyType === "rsa" || key.asymmetricKeyType === "rsa-pss") return `RSA ${details?.modulusLength ?? ""}`.trim();
  return (key.asymmetricKeyType ?? "unknown").toUpperCase();
}

/** The certificate that seals every completed package: it loads, and is valid for more than 30 days. */
export async function checkSealingIdentity(ctx: TReadinessContext): Promise<TReadinessCheck> {
  const p12 = ctx.env.SIGNING_P12_PATH;
  const source = p12 ? `the operator's PKCS#12 (SIGNING_P12_PATH=${p12})` : "this instance's own certificate (self-signed, kept in the database)";
  if (!p12 && !ctx.db) {
    return check(
      "sealing-identity",
      TITLE,
      "fail",
      "Not checked: the instance certificate is kept in the database, which is not ready (see Database).",
      "Fix the database first.",
    );
  }
  let x509: X509Certificate;
  try {
    const identity = await ctx.signingIdentity();
    x509 = new X509Certificate(identity.certificateDer);
  } catch (err) {
    return check(
      "sealing-identity",
      TITLE,
      "fail",
      `The sealing identity cannot be loaded, so no package can be sealed: ${reason(err)}.`,
      p12
        ? "Check that SIGNING_P12_PATH names a readable PKCS#12 (.p12/.pfx) file with its private key, and that SIGNING_P12_PASSWORD opens it."
        : "Check that ENCRYPTION_KEY is the one this database's instance certificate was stored with.",
    );
  }
  const notAfter = new Date(x509.validTo);
  const notBefore = new Date(x509.validFrom);
  const facts = [
    { label: "Source", value: p12 ? "PKCS#12 (SIGNING_P12_PATH)" : "instance certificate (self-signed)" },
    { label: "Subject", value: x509.subject.replace(/\n/g, ", ") },
    { label: "Issuer", value: x509.issuer.replace(/\n/g, ", ") },
    { label: "Key type", value: keyType(x509) },
    { label: "Valid until", value: notAfter.toISOString() },
  ];
  const at = ctx.now();
  const renew = p12
    ? "Get a new certificate from your certificate authority, point SIGNING_P12_PATH at it, and restart."
    : "Set SIGNING_P12_PATH to a new certificate, and restart.";
  if (at.getTime() >= notAfter.getTime()) {
    return check(
      "sealing-identity",
      TITLE,
      "fail",
      `The sealing certificate expired on ${notAfter.toISOString()}: seals made with it are not valid.`,
      renew,
      facts,
    );
  }
  if (at.getTime() < notBefore.getTime()) {
    return check(
      "sealing-identity",
      TITLE,
      "fail",
      `The sealing certificate is not valid before ${notBefore.toISOString()}.`,
      "Check this server's clock, or the certificate.",
      facts,
    );
  }
  const days = Math.floor((notAfter.getTime() - at.getTime()) / DAY);
  if (days < EXPIRY_WARNING_DAYS) {
    return check("sealing-identity", TITLE, "warn", `The sealing certificate expires in ${days} day(s), on ${notAfter.toISOString()}.`, renew, facts);
  }
  return check("sealing-identity", TITLE, "ok", `Packages are sealed with ${source}, valid for ${days} more days.`, null, facts);
}
