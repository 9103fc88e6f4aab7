import { formatMailTime, greeting, renderMail, type TRenderedMail } from "./render-mail";

export type TTestMailInput = { toName: string | null; instanceUrl: string; requestedAt: Date };

/** The settings page's test message: proves the configured transport delivers. */
export function buildTestMail(input: TTestMailInput): TRenderedMail {
  return renderMail({
    subject: "Foliosign test message",
    blocks: [
      { kind: "p", text: greeting(input.toName) },
      { kind: "p", text: `You asked for this test on ${formatMailTime(input.requestedAt)}. If you are reading it, Foliosign can send mail.` },
      { kind: "button", label: "Open Foliosign", url: input.instanceUrl },
    ],
  });
}
