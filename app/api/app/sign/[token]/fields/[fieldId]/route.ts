import { publicAppRoute } from "@/server/auth/app-route";
import { appSetSigningField } from "@/server/domain/signing/operations";
import { setFieldValue } from "@/server/domain/signing/set-field-value";
import { signingRequest } from "@/server/http/signing-request";

// PUT /api/app/sign/{token}/fields/{fieldId} – store a typed value
export const PUT = publicAppRoute(appSetSigningField, ({ db, req, params, body }) =>
  setFieldValue(db, signingRequest(req, params.token), { ...body, fieldId: params.fieldId }),
);
