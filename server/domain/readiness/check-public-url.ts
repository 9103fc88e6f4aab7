import ipaddr from "ipaddr.js";
import { check, type TReadinessCheck, type TReadinessContext } from "./types";

const TITLE = "Public URL";

function isLocalHost(hostname: string): boolean {
  const host = hostname.replace(/^\[(.*)\]$/, "$1");
  if (/(^|\.)localhost\.?$/i.test(host)) return true;
  if (!ipaddr.isValid(host)) return false;
  const range = ipaddr.process(host).range();
  return range === "loopback" || range === "unspecified";
}

/** PUBLIC_URL: what every signing link, mail button and the API reference's server are built from. */
export function checkPublicUrl(ctx: TReadinessContext): TReadinessCheck {
  const base = ctx.env.publicUrl;
  const example = `${base}/sign/<token>`;
  const facts = [
    { label: "PUBLIC_URL", value: ctx.env.PUBLIC_URL ? base : `not set (using ${base})` },
    { label: "Signing links look like", value: example },
  ];
  const url = new URL(base);
  if (!ctx.env.PUBLIC_URL) {
    return check(
      "public-url",
      TITLE,
      "fail",
      `PUBLIC_URL is not set, so signing links point at ${base}: recipients on other machines cannot open them.`,
      "Set PUBLIC_URL to the address people reach this server at, e.g. PUBLIC_URL=https://sign.example.com, and restart.",
      facts,
    );
  }
  if (isLocalHost(url.hostname)) {
    return check(
      "public-url",
      TITLE,
      "warn",
      `PUBLIC_URL names this machine (${url.hostname}): only someone on this machine can open a signing link.`,
      "Fine for a trial on your own computer. For real recipients set PUBLIC_URL to the server's public address.",
      facts,
    );
  }
  if (url.protocol !== "https:") {
    return check(
      "public-url",
      TITLE,
      "warn",
      "PUBLIC_URL is plain http: signing links, sign-in cookies and signatures travel unencrypted.",
      "Serve Foliosign over https (a reverse proxy with a certificate) and set PUBLIC_URL to the https:// address.",
      facts,
    );
  }
  return check("public-url", TITLE, "ok", `Signing links point at ${url.origin}.`, null, facts);
}
