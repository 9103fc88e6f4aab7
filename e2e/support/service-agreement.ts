/**
 * The signing specs' shared set-up (10-signing, 32-signing-keyboard-long-titles): an API key made in the app, and an
 * ACTIVE "Service agreement" template of a two-page PDF with two roles — Client, Provider — each with a signature
 * and a text field ("Client address", "Provider company"); packages from it go to Clara Client, then Li Provider.
 */
import type { APIRequestContext, Page } from "@playwright/test";
import { createApiKey } from "./api-key";
import { activeTemplate, keyApi, sentFromTemplate, signatureAndTextPerRole, signingPathFor } from "./key-api";
import { signInAsOwner } from "./owner";
import { titledPdf } from "./pdf";

export type TServiceAgreementPackage = { id: string; status: string; recipientSessions: { id: string; status: string }[] };

export type TServiceAgreement = {
  key: string;
  templateId: string;
  api(request: APIRequestContext): ReturnType<typeof keyApi>;
  /** A package from the template, two recipients in order, sent. */
  sentPackage(request: APIRequestContext, title: string): Promise<TServiceAgreementPackage>;
  /** The signing link of the package's recipient at `index` (0: Clara, 1: Li). */
  signingUrl(request: APIRequestContext, pkg: TServiceAgreementPackage, index: number): Promise<string>;
};

/** Signs in as the owner, makes a key named `keyName` and the template; returns what the tests call. */
export async function setUpServiceAgreement(page: Page, request: APIRequestContext, keyName: string): Promise<TServiceAgreement> {
  await signInAsOwner(page);
  const key = await createApiKey(page, keyName, "Admin");
  const api = (r: APIRequestContext) => keyApi(r, key);
  const templateId = await activeTemplate(api(request), request, {
    name: "Service agreement",
    documentName: "agreement.pdf",
    pdf: await titledPdf(
      ["Service agreement — terms", "Service agreement — signatures"].map((title) => [
        title,
        "The client and the provider agree to the terms of this agreement.",
      ]),
    ),
    roles: ["Client", "Provider"],
    fields: signatureAndTextPerRole(2, ["Client address", "Provider company"], { signatureY: 560, signatureHeight: 50, textY: 640 }),
  });
  return {
    key,
    templateId,
    api,
    sentPackage: (r, title) =>
      sentFromTemplate<TServiceAgreementPackage>(api(r), templateId, title, [
        { email: "clara@client.test", name: "Clara Client", roleIndex: 0 },
        { email: "li@provider.test", name: "Li Provider", roleIndex: 1 },
      ]),
    signingUrl: (r, pkg, index) => signingPathFor(api(r), pkg.id, pkg.recipientSessions[index]!.id),
  };
}
