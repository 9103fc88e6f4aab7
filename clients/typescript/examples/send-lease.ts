// send-lease.ts: a package from a template, sent, and a signing link for its first recipient
import { createFoliosignClient, FoliosignError } from "@foliosign/client";

const foliosign = createFoliosignClient({ baseUrl: process.env.FOLIOSIGN_URL!, apiKey: process.env.FOLIOSIGN_KEY! });
try {
  const draft = await foliosign.createFromTemplate({
    templateId: process.env.TEMPLATE_ID!,
    title: "Lease renewal — Flat 4B",
    recipients: [
      { roleIndex: 0, name: "Tina Tenant", email: "tina@example.com" },
      { roleIndex: 1, name: "Lars Landlord", email: "lars@example.com" },
    ],
  });
  const sent = await foliosign.send(draft.id);
  const link = await foliosign.signingUrl(sent.id, { sessionId: sent.recipientSessions[0]!.id });
  console.log(`${sent.id} is ${sent.status}; Tina signs at ${link.url}`);
} catch (err) {
  // Any non-2xx: the API's { error, details } with the status, X-Request-Id and (on 429) Retry-After.
  if (err instanceof FoliosignError) console.error(err.status, err.error, err.details ?? "");
  throw err;
}
