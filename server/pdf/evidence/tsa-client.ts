/**
 * A @libpdf/core TimestampAuthority over the operator's RFC 3161 endpoints, tried in order. Every answer is
 * checked before use (status granted, token parses, our imprint and nonce, TSA signature, critical timeStamping
 * EKU, certificate valid at genTime); a broken or hostile answer counts as that TSA being down. When none
 * answers usefully, `timestamp` rejects with EvidenceUnavailableError whose message names each URL (redacted)
 * and why. The tokens obtained are recorded in `issued`, in order, for the caller's report.
 */
import { randomBytes } from "node:crypto";
import * as asn1js from "asn1js";
import type { DigestAlgorithm, TimestampAuthority } from "@libpdf/core";
import { redactUrl } from "@/server/lib/redact-url";
import { boundedFetch } from "./http-fetch";
import { checkTimestampToken } from "./timestamp-token";
import { EvidenceUnavailableError, type TEvidenceConfig } from "./types";

const HASH_OID: Record<DigestAlgorithm, string> = {
  "SHA-256": "2.16.840.1.101.3.4.2.1",
  "SHA-384": "2.16.840.1.101.3.4.2.2",
  "SHA-512": "2.16.840.1.101.3.4.2.3",
};

export const DEFAULT_TSA_TIMEOUT_MS = 10_000;

export type TIssuedToken = {
  token: Uint8Array;
  time: Date;
  authority: string;
  tsaCertificateNotAfter: Date;
  url: string;
  /** DER of the TSA certificate and of every certificate the token carries (its chain). */
  tsaCertificate: Uint8Array;
  certificates: Uint8Array[];
};

export type TTsaClient = TimestampAuthority & { issued: TIssuedToken[] };

function buildRequest(digest: Uint8Array, algorithm: DigestAlgorithm, nonce: Uint8Array): Uint8Array {
  const req = new asn1js.Sequence({
    value: [
      new asn1js.Integer({ value: 1 }),
      new asn1js.Sequence({
        value: [
          new asn1js.Sequence({ value: [new asn1js.ObjectIdentifier({ value: HASH_OID[algorithm] }), new asn1js.Null()] }),
          new asn1js.OctetString({ valueHex: digest.slice().buffer }),
        ],
      }),
      new asn1js.Integer({ valueHex: nonce.slice().buffer }),
      new asn1js.Boolean({ value: true }), // certReq: the token must carry the TSA certificate
    ],
  });
  return new Uint8Array(req.toBER(false));
}

/** TimeStampResp → the token, or a reason. */
function readResponse(body: Uint8Array): { token: Uint8Array } | { problem: string } {
  try {
    return readResponseStructure(body);
  } catch {
    // asn1js throws on some malformed encodings instead of reporting an offset of -1.
    return { problem: "the answer is not an RFC 3161 response" };
  }
}

function readResponseStructure(body: Uint8Array): { token: Uint8Array } | { problem: string } {
  const asn1 = asn1js.fromBER(body.slice().buffer);
  if (asn1.offset === -1 || !(asn1.result instanceof asn1js.Sequence)) return { problem: "the answer is not an RFC 3161 response" };
  const [statusInfo, token] = asn1.result.valueBlock.value;
  const status = statusInfo instanceof asn1js.Sequence ? statusInfo.valueBlock.value[0] : undefined;
  if (!(status instanceof asn1js.Integer)) return { problem: "the answer has no status" };
  const code = status.valueBlock.valueDec;
  if (code !== 0 && code !== 1) return { problem: `the TSA refused (status ${code})` };
  if (!token) return { problem: "the answer grants but holds no token" };
  return { token: new Uint8Array(token.toBER(false)) };
}

export function createTsaClient(config: TEvidenceConfig): TTsaClient {
  const issued: TIssuedToken[] = [];
  const timeoutMs = config.tsaTimeoutMs ?? DEFAULT_TSA_TIMEOUT_MS;
  return {
    issued,
    async timestamp(digest: Uint8Array, algorithm: DigestAlgorithm): Promise<Uint8Array> {
      const reasons: string[] = [];
      for (const url of config.tsaUrls) {
        const nonceBytes = randomBytes(8);
        // A positive INTEGER in minimal DER: a first byte of 0x00 (followed by < 0x80) would be illegal padding,
        // which strict parsers (openssl) reject in the token that echoes it.
        nonceBytes[0] = (nonceBytes[0]! & 0x7f) | 0x01;
        const nonce = BigInt(`0x${nonceBytes.toString("hex")}`);
        try {
          const body = await boundedFetch({
            url,
            method: "POST",
            contentType: "application/timestamp-query",
            accept: "application/timestamp-reply",
            body: buildRequest(digest, algorithm, nonceBytes),
            timeoutMs,
            fetch: config.fetch,
          });
          const answer = readResponse(body);
          if ("problem" in answer) throw new Error(answer.problem);
          const check = checkTimestampToken(answer.token, { digest, nonce });
          if (!check.ok) throw new Error(check.problem);
          issued.push({
            token: answer.token,
            time: check.time!,
            authority: check.authority!,
            tsaCertificateNotAfter: check.tsaCertificateNotAfter!,
            url,
            tsaCertificate: check.tsaCertificate!,
            certificates: check.certificates!,
          });
          return answer.token;
        } catch (error) {
          const message = (error as Error).message;
          const shown = redactUrl(url);
          reasons.push(message.startsWith(shown) ? message : `${shown}: ${message}`);
        }
      }
      throw new EvidenceUnavailableError(
        config.tsaUrls.length === 0 ? "no time-stamping authority is configured" : `no time-stamping authority answered usefully: ${reasons.join("; ")}`,
      );
    },
  };
}
