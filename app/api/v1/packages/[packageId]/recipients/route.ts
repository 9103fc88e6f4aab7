import { addRecipient } from "@/server/domain/packages/add-recipient";
import { apiRoute } from "@/server/http/api-route";
import { addRecipientOp } from "@/server/domain/packages/operations";

// POST /api/v1/packages/{packageId}/recipients – correction: add a recipient
export const POST = apiRoute(addRecipientOp, ({ db, actor, params, body }) => addRecipient(db, actor, { ...params, ...body }));
