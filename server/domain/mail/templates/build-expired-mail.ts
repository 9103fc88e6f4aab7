import { formatMailTime, greeting, renderMail, type TMailBlock, type TRenderedMail } from "./render-mail";

export type TExpiredMailInput = {
  toName: string | null;
  packageTitle: string;
  expiredAt: Date;
  audience: "owner" | "recipient";
  /** The owner's link to the package page. */
  packageUrl: string | null;
  senderName: string;
};

/** The notice that a package expired before everyone signed. */
export function buildExpiredMail(input: TExpiredMailInput): TRenderedMail {
  const blocks: TMailBlock[] = [
    { kind: "p", text: greeting(input.toName) },
    { kind: "p", text: `“${input.packageTitle}” expired on ${formatMailTime(input.expiredAt)} before everyone had signed.` },
  ];
  if (input.audience === "owner" && input.packageUrl) {
    blocks.push({ kind: "p", text: "You can see who signed on the package page, and send it again if it is still needed." });
    blocks.push({ kind: "button", label: "Open the package", url: input.packageUrl });
  } else {
    blocks.push({ kind: "p", text: `Your signing link no longer works. If it is still needed, ${input.senderName} can send it again.` });
  }
  return renderMail({ subject: `Expired: “${input.packageTitle}”`, blocks });
}
