import type { TSigningClosedReason } from "@/server/domain/signing/schemas";
import { Logo } from "@/components/shell/logo";
import { buttonClasses } from "@/components/ui/button";

export type TEndReason = TSigningClosedReason | "NOT_FOUND";

const PAGES: Record<TEndReason, { title: string; body: string; tone: "done" | "wait" | "stop" }> = {
  NOT_FOUND: {
    title: "This signing link is not valid",
    body: "It may have been replaced by a newer link, or it has expired. Open the most recent email you received about this document, or ask the sender for a new link.",
    tone: "stop",
  },
  NOT_SENT: { title: "This document has not been sent yet", body: "You'll get an email when it is ready for you to sign.", tone: "wait" },
  ON_HOLD: {
    title: "Signing is on hold",
    body: "The sender has paused this document for now. This link will work again once they resume it; there is nothing you need to do.",
    tone: "wait",
  },
  VOIDED: { title: "This document was cancelled", body: "The sender voided it, so it can no longer be signed. There is nothing you need to do.", tone: "stop" },
  EXPIRED: {
    title: "This document has expired",
    body: "Its signing deadline has passed. Ask the sender to send it again if it still needs your signature.",
    tone: "stop",
  },
  DELETED: { title: "This document is no longer available", body: "The sender removed it. There is nothing you need to do.", tone: "stop" },
  COMPLETED: { title: "Everyone has signed", body: "The document is complete. You will receive the signed copy by email.", tone: "done" },
  FINISHED: {
    title: "You're done — thank you",
    body: "Your signature has been recorded. You will receive the signed copy by email once everyone has signed.",
    tone: "done",
  },
  DECLINED: { title: "You declined to sign", body: "The sender has been told, with your reason. There is nothing else you need to do.", tone: "stop" },
  NOT_YOUR_TURN: {
    title: "It's not your turn to sign yet",
    body: "Someone else signs before you. You'll get an email when it's your turn.",
    tone: "wait",
  },
  ENDED: { title: "This document can no longer be signed", body: "Another recipient declined it, so signing has ended.", tone: "stop" },
};

const ICONS = {
  done: { className: "bg-emerald-100 text-emerald-700", path: "M5 12.5l4.5 4.5L19 7.5" },
  wait: { className: "bg-amber-100 text-amber-800", path: "M12 7v5l3 2" },
  stop: { className: "bg-zinc-100 text-zinc-700", path: "M8 8l8 8M16 8l-8 8" },
} as const;

/**
 * The clear page a link shows when there is nothing to sign: not an error, a sentence saying what happened. Once
 * the package is sealed (`signedCopy`) the same link — the one the completed mail carries — offers the signed PDF.
 */
export function SigningEndPage({
  reason,
  packageTitle,
  signedCopy,
  token,
}: {
  reason: TEndReason;
  packageTitle?: string | null;
  signedCopy?: boolean;
  token?: string;
}) {
  const page =
    signedCopy && token
      ? {
          ...PAGES[reason],
          body: "The document is complete and sealed. Download your signed copy below: it carries a digital signature and a certificate of completion.",
        }
      : PAGES[reason];
  const icon = ICONS[page.tone];
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center bg-zinc-50 px-4 py-12" data-signing-end={reason}>
      <Logo className="mb-8" />
      <div className="w-full max-w-md rounded-xl border border-zinc-200 bg-white p-8 text-center shadow-sm">
        <span className={`mx-auto mb-4 flex size-12 items-center justify-center rounded-full ${icon.className}`} aria-hidden="true">
          <svg viewBox="0 0 24 24" className="size-6" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
            {page.tone === "wait" ? <circle cx="12" cy="12" r="8" /> : null}
            <path d={icon.path} />
          </svg>
        </span>
        <h1 className="text-xl font-semibold text-zinc-900">{page.title}</h1>
        {packageTitle ? (
          <p className="mt-1 text-sm font-medium wrap-anywhere text-zinc-600" dir="auto">
            {packageTitle}
          </p>
        ) : null}
        <p className="mt-4 text-sm leading-6 text-zinc-700">{page.body}</p>
        {signedCopy && token ? (
          <a href={`/api/app/sign/${encodeURIComponent(token)}/download`} download className={buttonClasses("primary", "md", "mt-6 h-11 px-5")}>
            Download the signed PDF
          </a>
        ) : null}
      </div>
    </main>
  );
}
