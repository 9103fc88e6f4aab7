import { removeRecipient } from "@/server/domain/packages/remove-recipient";
import { updateRecipient } from "@/server/domain/packages/update-recipient";
import { apiRoute } from "@/server/http/api-route";
import { removeRecipientOp, updateRecipientOp } from "@/server/domain/packages/operations";

// PATCH /api/v1/packages/{packageId}/recipients/{sessionId} – correction: change a recipient
export const PATCH = apiRoute(updateRecipientOp, ({ db, actor, params, body }) => updateRecipient(db, actor, { ...params, ...body }));

// DELETE /api/v1/packages/{packageId}/recipients/{sessionId} – correction: remove a recipient
export const DELETE = apiRoute(removeRecipientOp, ({ db, actor, params }) => removeRecipient(db, actor, params));
