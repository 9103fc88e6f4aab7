import { greeting, renderMail, type TMailBlock, type TRenderedMail } from "./render-mail";

export type TCompletedMailInput = {
  toName: string | null;
  packageTitle: string;
  /** "recipient": someone who signed; "owner": the member the package belongs to. */
  audience: "recipient" | "owner";
  /** Where the sealed copy is downloaded (the owner's: the package page). Null: no link (the copy follows). */
  downloadUrl: string | null;
};

/** The completed copy: everyone has signed and the documents are sealed. */
export function buildCompletedMail(input: TCompletedMailInput): TRenderedMail {
  const blocks: TMailBlock[] = [{ kind: "p", text: greeting(input.toName) }];
  if (input.audience === "owner") {
    blocks.push({ kind: "p", text: `Every recipient has signed “${input.packageTitle}”. The sealed PDF and its certificate of completion are ready.` });
    if (input.downloadUrl) blocks.push({ kind: "button", label: "Open the package", url: input.downloadUrl });
  } else {
    blocks.push({ kind: "p", text: `Everyone has signed “${input.packageTitle}”. Thank you.` });
    if (input.downloadUrl) {
      blocks.push({ kind: "button", label: "Download the signed copy", url: input.downloadUrl });
    } else {
      blocks.push({ kind: "p", text: "Your signed copy will reach you separately; ask the sender if it does not." });
    }
  }
  blocks.push({
    kind: "small",
    text: "The signed PDF carries a digital signature and a certificate of completion that records who signed, when and from where. Any change to the file breaks the signature.",
  });
  return renderMail({ subject: `Completed: “${input.packageTitle}”`, blocks });
}
