import { lockTemplate } from "@/server/domain/templates/lock-template";
import { unlockTemplate } from "@/server/domain/templates/unlock-template";
import { appRoute } from "@/server/auth/app-route";
import * as ops from "@/server/domain/templates/operations";

// POST /api/app/templates/{templateId}/lock – take or renew the editor's 2-minute lease
export const POST = appRoute(ops.appLockTemplate, ({ db, actor, params }) => lockTemplate(db, actor, params));

// DELETE /api/app/templates/{templateId}/lock – release it (force=true: the owner breaks another's)
export const DELETE = appRoute(ops.appUnlockTemplate, ({ db, actor, params, query }) => unlockTemplate(db, actor, { ...params, ...query }));
