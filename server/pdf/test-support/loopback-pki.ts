/**
 * Test support: a loopback PKI on 127.0.0.1 for the evidence tests (ours and the sealing job's).
 * - A CA (openssl, ECDSA P-256) publishing a CRL (GET /crl) and answering OCSP (POST /ocsp, `openssl ocsp`
 *   against the CA's index), on one HTTP server.
 * - An operator PKCS#12 issued by that CA whose certificate names the CRL distribution point and the OCSP URL.
 * - An RFC 3161 TSA (POST /tsa on its own server, so it can be stopped and started again on the same port)
 *   whose tokens carry contentType, messageDigest and ESS signingCertificateV2, signed by a TSA certificate
 *   issued by the same CA with the critical timeStamping EKU (and CRL/OCSP URLs, so its chain needs revocation
 *   data too). `setTsaMode` makes it hostile: garbage bytes, a rejection, a token over another imprint, a
 *   token signed by a certificate without the timeStamping EKU, a wrong nonce, an answer over 1 MB, an answer
 *   slower than any test timeout.
 * Certificates are made by the real openssl binary; tokens are built with asn1js/pkijs and signed with
 * node:crypto. Nothing listens beyond 127.0.0.1.
 */
import { execFile, execFileSync } from "node:child_process";
import { createHash, createPrivateKey, randomBytes, sign, X509Certificate } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";

const run = promisify(execFile);

export type TTsaMode = "ok" | "garbage" | "reject" | "other-imprint" | "no-eku" | "bad-nonce" | "oversize" | "slow";

export type TLoopbackPki = {
  dir: string;
  /** http://127.0.0.1:<port>/tsa */
  tsaUrl: string;
  setTsaMode(mode: TTsaMode): void;
  /** Closes the TSA's server (connections refused) / listens again on the same port. */
  stopTsa(): Promise<void>;
  startTsa(): Promise<void>;
  /** Requests seen per route (tsa, ocsp, crl) and the Authorization headers the TSA received. */
  seen: { tsa: number; ocsp: number; crl: number; authorization: string[] };
  caCertificateDer: Uint8Array;
  caCertificatePath: string;
  tsaCertificateDer: Uint8Array;
  tsaCertificatePath: string;
  operatorP12Path: string;
  operatorP12Password: string;
  operatorCertificateDer: Uint8Array;
  /** "down": the OCSP responder answers HTTP 503, so revocation data must come from the CRL. */
  setOcspMode(mode: "ok" | "down"): void;
  /** Revokes the operator's certificate at the CA (CRL and OCSP then say so). */
  revokeOperator(): Promise<void>;
  close(): Promise<void>;
};

const OID = {
  tstInfo: "1.2.840.113549.1.9.16.1.4",
  contentType: "1.2.840.113549.1.9.3",
  messageDigest: "1.2.840.113549.1.9.4",
  signingCertificateV2: "1.2.840.113549.1.9.16.2.47",
  sha256: "2.16.840.1.101.3.4.2.1",
  ecdsaSha256: "1.2.840.10045.4.3.2",
  signedData: "1.2.840.113549.1.7.2",
};

const openssl = (args: string[], cwd: string) => execFileSync("openssl", args, { cwd, stdio: ["ignore", "pipe", "pipe"] });

function caConfig(dir: string): string {
  return `[ ca ]
default_ca = loop
[ loop ]
dir = ${dir}
database = ${dir}/index.txt
new_certs_dir = ${dir}/issued
serial = ${dir}/serial
crlnumber = ${dir}/crlnumber
certificate = ${dir}/ca.crt
private_key = ${dir}/ca.key
default_md = sha256
default_days = 3650
default_crl_days = 30
policy = any
unique_subject = no
copy_extensions = none
[ any ]
commonName = supplied
organizationName = optional
[ req ]
distinguished_name = dn
prompt = no
[ dn ]
CN = unused
`;
}

function extensions(base: string, extra: string): string {
  return `[ ext ]
basicConstraints = critical, CA:false
keyUsage = critical, digitalSignature, nonRepudiation
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
crlDistributionPoints = URI:${base}/crl
authorityInfoAccess = OCSP;URI:${base}/ocsp
${extra}
`;
}

function issue(dir: string, name: string, subject: string, ext: string): void {
  openssl(["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", `${name}.key`], dir);
  openssl(["req", "-new", "-key", `${name}.key`, "-subj", subject, "-out", `${name}.csr`], dir);
  writeFileSync(path.join(dir, `${name}.ext`), ext);
  openssl(
    [
      "ca",
      "-batch",
      "-config",
      "ca.cnf",
      "-in",
      `${name}.csr`,
      "-out",
      `${name}.crt`,
      "-extfile",
      `${name}.ext`,
      "-extensions",
      "ext",
      "-notext",
      "-days",
      "3650",
      "-startdate",
      "20240101000000Z",
    ],
    dir,
  );
  openssl(["x509", "-in", `${name}.crt`, "-outform", "DER", "-out", `${name}.der`], dir);
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function listen(server: Server, port = 0): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve((server.address() as AddressInfo).port));
  });
}

type TTsaSigner = { key: ReturnType<typeof createPrivateKey>; certDer: Uint8Array; cert: pkijs.Certificate };

function loadSigner(dir: string, name: string): TTsaSigner {
  const certDer = new Uint8Array(readFileSync(path.join(dir, `${name}.der`)));
  return {
    key: createPrivateKey(readFileSync(path.join(dir, `${name}.key`))),
    certDer,
    cert: new pkijs.Certificate({ schema: asn1js.fromBER(certDer.slice().buffer).result }),
  };
}

/** A TimeStampResp granting a token over `imprint` (SHA-256) with `nonce`, signed by `signer`. */
export function makeTimestampResponse(
  signer: TTsaSigner,
  caDer: Uint8Array,
  imprint: Uint8Array,
  nonce: asn1js.Integer | undefined,
  genTime = new Date(),
): Uint8Array {
  const tst = new pkijs.TSTInfo({
    version: 1,
    policy: "1.3.6.1.4.1.99999.1",
    messageImprint: new pkijs.MessageImprint({
      hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: OID.sha256, algorithmParams: new asn1js.Null() }),
      hashedMessage: new asn1js.OctetString({ valueHex: imprint.slice().buffer }),
    }),
    serialNumber: new asn1js.Integer({ valueHex: randomBytes(8).fill(0x11, 0, 1).buffer }),
    genTime: new Date(Math.floor(genTime.getTime() / 1000) * 1000),
    ...(nonce ? { nonce } : {}),
  });
  const tstDer = new Uint8Array(tst.toSchema().toBER(false));
  const essCertIdV2 = new asn1js.Sequence({
    value: [
      new asn1js.OctetString({ valueHex: createHash("sha256").update(signer.certDer).digest().buffer.slice(0) as ArrayBuffer }),
      new pkijs.IssuerSerial({
        issuer: new pkijs.GeneralNames({ names: [new pkijs.GeneralName({ type: 4, value: signer.cert.issuer })] }),
        serialNumber: signer.cert.serialNumber,
      }).toSchema(),
    ],
  });
  const attrs = [
    new pkijs.Attribute({ type: OID.contentType, values: [new asn1js.ObjectIdentifier({ value: OID.tstInfo })] }),
    new pkijs.Attribute({
      type: OID.messageDigest,
      values: [new asn1js.OctetString({ valueHex: createHash("sha256").update(tstDer).digest().buffer.slice(0) as ArrayBuffer })],
    }),
    new pkijs.Attribute({ type: OID.signingCertificateV2, values: [new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [essCertIdV2] })] })] }),
  ].sort((a, b) => Buffer.compare(Buffer.from(a.toSchema().toBER(false)), Buffer.from(b.toSchema().toBER(false))));
  const signedAttrs = new pkijs.SignedAndUnsignedAttributes({ type: 0, attributes: attrs });
  const toSign = new Uint8Array(signedAttrs.toSchema().toBER(false));
  toSign[0] = 0x31;
  const signature = sign("sha256", toSign, signer.key);
  const signerInfo = new pkijs.SignerInfo({
    version: 1,
    sid: new pkijs.IssuerAndSerialNumber({ issuer: signer.cert.issuer, serialNumber: signer.cert.serialNumber }),
    digestAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: OID.sha256 }),
    signedAttrs,
    signatureAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: OID.ecdsaSha256 }),
    signature: new asn1js.OctetString({ valueHex: signature.buffer.slice(signature.byteOffset, signature.byteOffset + signature.length) as ArrayBuffer }),
  });
  const signedData = new pkijs.SignedData({
    version: 3,
    digestAlgorithms: [new pkijs.AlgorithmIdentifier({ algorithmId: OID.sha256 })],
    encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: OID.tstInfo, eContent: new asn1js.OctetString({ valueHex: tstDer.slice().buffer }) }),
    certificates: [signer.cert, new pkijs.Certificate({ schema: asn1js.fromBER(caDer.slice().buffer).result })],
    signerInfos: [signerInfo],
  });
  const token = new pkijs.ContentInfo({ contentType: OID.signedData, content: signedData.toSchema() });
  const resp = new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [new asn1js.Integer({ value: 0 })] }), token.toSchema()] });
  return new Uint8Array(resp.toBER(false));
}

function rejection(): Uint8Array {
  const statusString = new asn1js.Sequence({ value: [new asn1js.Utf8String({ value: "policy not accepted" })] });
  return new Uint8Array(new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [new asn1js.Integer({ value: 2 }), statusString] })] }).toBER(false));
}

export async function startLoopbackPki(): Promise<TLoopbackPki> {
  const dir = mkdtempSync(path.join(tmpdir(), "foliosign-pki-"));
  const seen = { tsa: 0, ocsp: 0, crl: 0, authorization: [] as string[] };
  let ocspMode: "ok" | "down" = "ok";
  const sockets = new Map<Server, Set<Socket>>();
  const track = (server: Server) => {
    const set = new Set<Socket>();
    sockets.set(server, set);
    server.on("connection", (s) => (set.add(s), s.on("close", () => set.delete(s))));
  };

  // The CA's server first: its port goes into the certificates.
  const caServer = createServer((req, res) => void handleCa(req, res));
  track(caServer);
  const caPort = await listen(caServer);
  const base = `http://127.0.0.1:${caPort}`;

  writeFileSync(path.join(dir, "ca.cnf"), caConfig(dir));
  writeFileSync(path.join(dir, "index.txt"), "");
  writeFileSync(path.join(dir, "serial"), "1000\n");
  writeFileSync(path.join(dir, "crlnumber"), "01\n");
  execFileSync("mkdir", ["-p", path.join(dir, "issued")]);
  openssl(["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", "ca.key"], dir);
  openssl(
    [
      "req",
      "-x509",
      "-new",
      "-key",
      "ca.key",
      "-subj",
      "/CN=Foliosign Loopback Test CA/O=Foliosign tests",
      "-days",
      "3650",
      "-out",
      "ca.crt",
      "-addext",
      "basicConstraints=critical,CA:true",
      "-addext",
      "keyUsage=critical,keyCertSign,cRLSign",
      "-addext",
      "subjectKeyIdentifier=hash",
    ],
    dir,
  );
  openssl(["x509", "-in", "ca.crt", "-outform", "DER", "-out", "ca.der"], dir);
  issue(dir, "tsa", "/CN=Foliosign Loopback TSA/O=Foliosign tests", extensions(base, "extendedKeyUsage = critical, timeStamping"));
  issue(dir, "tsa-no-eku", "/CN=Foliosign Loopback TSA without EKU/O=Foliosign tests", extensions(base, ""));
  issue(dir, "operator", "/CN=Foliosign Operator Seal/O=Foliosign tests", extensions(base, ""));
  const operatorP12Password = "loopback-p12";
  openssl(
    [
      "pkcs12",
      "-export",
      "-inkey",
      "operator.key",
      "-in",
      "operator.crt",
      "-certfile",
      "ca.crt",
      "-passout",
      `pass:${operatorP12Password}`,
      "-out",
      "operator.p12",
    ],
    dir,
  );

  const caDer = new Uint8Array(readFileSync(path.join(dir, "ca.der")));
  const tsaSigner = loadSigner(dir, "tsa");
  const noEkuSigner = loadSigner(dir, "tsa-no-eku");

  async function crlDer(): Promise<Buffer> {
    await run("openssl", ["ca", "-gencrl", "-config", "ca.cnf", "-out", "crl.pem"], { cwd: dir });
    await run("openssl", ["crl", "-in", "crl.pem", "-outform", "DER", "-out", "crl.der"], { cwd: dir });
    return readFileSync(path.join(dir, "crl.der"));
  }

  async function handleCa(req: IncomingMessage, res: ServerResponse) {
    try {
      const body = await readBody(req);
      if (req.method === "GET" && req.url === "/crl") {
        seen.crl += 1;
        res.writeHead(200, { "Content-Type": "application/pkix-crl" }).end(await crlDer());
      } else if (req.method === "POST" && req.url === "/ocsp") {
        seen.ocsp += 1;
        if (ocspMode === "down") return void res.writeHead(503).end();
        const id = randomBytes(6).toString("hex");
        writeFileSync(path.join(dir, `ocsp-${id}.req`), body);
        await run(
          "openssl",
          [
            "ocsp",
            "-index",
            "index.txt",
            "-CA",
            "ca.crt",
            "-rsigner",
            "ca.crt",
            "-rkey",
            "ca.key",
            "-reqin",
            `ocsp-${id}.req`,
            "-respout",
            `ocsp-${id}.resp`,
            "-ndays",
            "7",
          ],
          { cwd: dir },
        );
        res.writeHead(200, { "Content-Type": "application/ocsp-response" }).end(readFileSync(path.join(dir, `ocsp-${id}.resp`)));
      } else res.writeHead(404).end();
    } catch (error) {
      res.writeHead(500).end(String(error));
    }
  }

  let mode: TTsaMode = "ok";
  const tsaServer = createServer((req, res) => void handleTsa(req, res));
  track(tsaServer);
  const tsaPort = await listen(tsaServer);

  async function handleTsa(req: IncomingMessage, res: ServerResponse) {
    try {
      const body = await readBody(req);
      seen.tsa += 1;
      if (req.headers.authorization) seen.authorization.push(req.headers.authorization);
      if (mode === "slow") {
        setTimeout(() => res.writeHead(503).end(), 5_000).unref();
        return;
      }
      if (mode === "garbage") return void res.writeHead(200, { "Content-Type": "application/timestamp-reply" }).end(randomBytes(700));
      if (mode === "reject") return void res.writeHead(200, { "Content-Type": "application/timestamp-reply" }).end(rejection());
      if (mode === "oversize") {
        res.writeHead(200, { "Content-Type": "application/timestamp-reply" });
        for (let i = 0; i < 24; i++) res.write(Buffer.alloc(64 * 1024, 0x30));
        return void res.end();
      }
      const request = asn1js.fromBER(new Uint8Array(body).buffer).result as asn1js.Sequence;
      const [, imprintSeq, ...rest] = request.valueBlock.value;
      const hashed = (imprintSeq as asn1js.Sequence).valueBlock.value[1] as asn1js.OctetString;
      let imprint = new Uint8Array(hashed.valueBlock.valueHexView);
      let nonce = rest.find((v): v is asn1js.Integer => v instanceof asn1js.Integer);
      if (mode === "other-imprint") imprint = new Uint8Array(createHash("sha256").update(imprint).digest());
      if (mode === "bad-nonce") nonce = new asn1js.Integer({ value: 42 });
      const answer = makeTimestampResponse(mode === "no-eku" ? noEkuSigner : tsaSigner, caDer, imprint, nonce);
      res.writeHead(200, { "Content-Type": "application/timestamp-reply" }).end(answer);
    } catch (error) {
      res.writeHead(500).end(String(error));
    }
  }

  const closeServer = (server: Server) =>
    new Promise<void>((resolve) => {
      if (!server.listening) return resolve();
      server.close(() => resolve());
      for (const s of sockets.get(server) ?? []) s.destroy();
    });

  return {
    dir,
    tsaUrl: `http://127.0.0.1:${tsaPort}/tsa`,
    setTsaMode: (m) => void (mode = m),
    setOcspMode: (m) => void (ocspMode = m),
    stopTsa: () => closeServer(tsaServer),
    startTsa: async () => void (tsaServer.listening || (await listen(tsaServer, tsaPort))),
    seen,
    caCertificateDer: caDer,
    caCertificatePath: path.join(dir, "ca.crt"),
    tsaCertificateDer: tsaSigner.certDer,
    tsaCertificatePath: path.join(dir, "tsa.crt"),
    operatorP12Path: path.join(dir, "operator.p12"),
    operatorP12Password,
    operatorCertificateDer: new Uint8Array(readFileSync(path.join(dir, "operator.der"))),
    async revokeOperator() {
      await run("openssl", ["ca", "-config", "ca.cnf", "-revoke", "operator.crt"], { cwd: dir });
    },
    async close() {
      await Promise.all([closeServer(tsaServer), closeServer(caServer)]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** For tests: the subject line of a DER certificate as describeSubject prints it. */
export const subjectOf = (der: Uint8Array) => new X509Certificate(der).subject.replace(/\n/g, ", ");
