import type { Db } from "@/server/db/client";
import { auditEvents } from "@/server/db/schema";
import { newId } from "@/server/lib/ids";
import { now } from "@/server/lib/clock";

export type TAuditInput = {
  organisationId: string;
  workspaceId?: string | null;
  subjectType: string;
  subjectId?: string | null;
  action: string;
  actorUserId?: string | null;
  apiKeyId?: string | null;
  data?: Record<string, unknown>;
};

/** Writes one audit event; call it inside the transaction of the change it records. */
export async function recordAudit(db: Db, input: TAuditInput): Promise<void> {
  await db.insert(auditEvents).values({
    id: newId("aud"),
    organisationId: input.organisationId,
    workspaceId: input.workspaceId ?? null,
    subjectType: input.subjectType,
    subjectId: input.subjectId ?? null,
    action: input.action,
    actorUserId: input.actorUserId ?? null,
    apiKeyId: input.apiKeyId ?? null,
    data: input.data ?? {},
    createdAt: now(),
  });
}
