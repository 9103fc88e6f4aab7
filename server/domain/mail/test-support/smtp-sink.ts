/**
 * A real SMTP server (npm smtp-server) on 127.0.0.1 for the mail tests: it receives what nodemailer sends,
 * decodes enough of each message (headers, quoted-printable/base64 parts) to assert on, and can be told to
 * refuse a recipient with a given reply code. Nothing listens beyond loopback.
 */
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export type TReceivedMail = { from: string; to: string[]; subject: string; raw: string; text: string; html: string };

/** `=?UTF-8?Q?…?=` / `=?UTF-8?B?…?=` encoded words, as nodemailer writes non-ASCII subjects. */
function decodeWords(value: string): string {
  return value.replace(/\?=\s+=\?/g, "?==?").replace(/=\?utf-8\?([qb])\?([^?]*)\?=/gi, (_, enc: string, data: string) =>
    enc.toLowerCase() === "b"
      ? Buffer.from(data, "base64").toString("utf8")
      : Buffer.from(
          data.replace(/_/g, " ").replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
          "latin1",
        ).toString("utf8"),
  );
}

function decodePart(headers: string, body: string): string {
  if (/content-transfer-encoding:\s*base64/i.test(headers)) return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  if (/content-transfer-encoding:\s*quoted-printable/i.test(headers)) {
    const bytes = body.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
    return Buffer.from(bytes, "latin1").toString("utf8");
  }
  return body;
}

function parse(raw: string): Pick<TReceivedMail, "subject" | "text" | "html"> {
  const [head = ""] = raw.split(/\r?\n\r?\n/, 1);
  const unfolded = head.replace(/\r?\n[ \t]+/g, " ");
  const subject = decodeWords(/^subject:\s*(.*)$/im.exec(unfolded)?.[1] ?? "");
  let text = "";
  let html = "";
  for (const part of raw.split(/\r?\n--[^\r\n]+\r?\n/)) {
    const split = part.search(/\r?\n\r?\n/);
    if (split < 0) continue;
    const headers = part.slice(0, split);
    const body = part
      .slice(split)
      .replace(/^\r?\n\r?\n/, "")
      .replace(/\r?\n--[^\r\n]*--\s*$/, "");
    if (/content-type:\s*text\/plain/i.test(headers)) text = decodePart(headers, body).replace(/\r\n/g, "\n");
    else if (/content-type:\s*text\/html/i.test(headers)) html = decodePart(headers, body);
  }
  return { subject, text, html };
}

export type TSmtpSink = {
  url: string;
  received: TReceivedMail[];
  /** Called at each RCPT TO: return a reply code (e.g. 451) to refuse it, or null to accept. */
  refuseRcpt: (address: string) => number | null;
  close(): Promise<void>;
};

/** `auth`: the server requires this user and password (AUTH PLAIN/LOGIN without TLS, loopback only) and refuses others with 535. */
export async function startSmtpSink(options: { auth?: { user: string; pass: string } } = {}): Promise<TSmtpSink> {
  const sink: TSmtpSink = { url: "", received: [], refuseRcpt: () => null, close: async () => {} };
  const { auth } = options;
  const server = new SMTPServer({
    authOptional: !auth,
    disabledCommands: auth ? ["STARTTLS"] : ["STARTTLS", "AUTH"],
    allowInsecureAuth: Boolean(auth),
    onAuth(login, _session, callback) {
      if (auth && login.username === auth.user && login.password === auth.pass) return callback(null, { user: login.username });
      const err = new Error("Authentication credentials invalid") as Error & { responseCode: number };
      err.responseCode = 535;
      callback(err);
    },
    logger: false,
    onRcptTo(address, _session, callback) {
      const code = sink.refuseRcpt(address.address);
      if (code === null) return callback();
      const err = new Error(code >= 500 ? "Mailbox unavailable" : "Try again later") as Error & { responseCode: number };
      err.responseCode = code;
      callback(err);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : "";
        sink.received.push({ from, to: session.envelope.rcptTo.map((r) => r.address), raw, ...parse(raw) });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  sink.url = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  sink.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return sink;
}
