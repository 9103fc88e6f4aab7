/**
 * Every operation, public (/api/v1) and internal (/api/app). The OpenAPI document and the JSON 404/405
 * table read the public ones; the route-coverage test reads all of them. A capability adds its module here.
 */
import type { TOperation } from "@/server/domain/operation";
import * as activity from "@/server/domain/activity/operations";
import * as documents from "@/server/domain/documents/operations";
import * as embedding from "@/server/domain/embedding/operations";
import * as customFields from "@/server/domain/custom-fields/operations";
import * as keys from "@/server/domain/keys/operations";
import * as library from "@/server/domain/library/operations";
import * as mail from "@/server/domain/mail/operations";
import * as memberSessions from "@/server/domain/member-sessions/operations";
import * as organisation from "@/server/domain/organisation/operations";
import * as packages from "@/server/domain/packages/operations";
import * as readiness from "@/server/domain/readiness/operations";
import * as sealing from "@/server/domain/sealing/operations";
import * as signing from "@/server/domain/signing/operations";
import * as signingGroups from "@/server/domain/signing-groups/operations";
import * as templates from "@/server/domain/templates/operations";
import * as webhooks from "@/server/domain/webhooks/operations";

const isOperation = (v: unknown): v is TOperation => typeof v === "object" && v !== null && "operationId" in v && "path" in v && "method" in v;

export const allOperations: TOperation[] = [
  activity,
  customFields,
  documents,
  embedding,
  keys,
  library,
  mail,
  memberSessions,
  organisation,
  packages,
  readiness,
  sealing,
  signing,
  signingGroups,
  templates,
  webhooks,
].flatMap((mod) => Object.values(mod as Record<string, unknown>).filter(isOperation));

export const publicOperations: TOperation[] = allOperations.filter((op) => !op.internal);
