import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { mailMessages } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { assertOwner } from "@/server/domain/access/gates";
import { env } from "@/server/env";
import { now } from "@/server/lib/clock";
import { mailSummaryView } from "./mail-view";
import { queueMail } from "./queue-mail";
import { buildTestMail } from "./templates/build-test-mail";
import { wakeMailWorker } from "./wake-mail-worker";

/** Settings → Mail: queues a test message to the signed-in owner and wakes the worker; the page follows its status. */
export async function sendTestMail(db: Db, actor: TActor) {
  assertOwner(actor);
  const { id } = await db.transaction((tx) =>
    queueMail(tx, {
      organisationId: actor.organisation.id,
      workspaceId: actor.workspace.id,
      userId: actor.user.id,
      kind: "TEST",
      to: { email: actor.user.email, name: actor.user.name },
      mail: buildTestMail({ toName: actor.user.name, instanceUrl: env().publicUrl, requestedAt: now() }),
    }),
  );
  await wakeMailWorker();
  const [row] = await db.select().from(mailMessages).where(eq(mailMessages.id, id));
  return mailSummaryView(row!);
}
