import { publicAppRoute } from "@/server/auth/app-route";
import { appGetSigningFieldImage, appSetSigningFieldImage } from "@/server/domain/signing/operations";
import { readFieldImage } from "@/server/domain/signing/read-field-image";
import { setFieldImage } from "@/server/domain/signing/set-field-image";
import { pngResponse } from "@/server/http/png-response";
import { signingRequest } from "@/server/http/signing-request";

// PUT /api/app/sign/{token}/fields/{fieldId}/image – store a drawn or uploaded signature (PNG bytes)
export const PUT = publicAppRoute(appSetSigningFieldImage, ({ db, req, params, query }) =>
  setFieldImage(db, signingRequest(req, params.token), {
    fieldId: params.fieldId,
    kind: query.kind,
    body: req.body,
    declaredSize: Number(req.headers.get("content-length")) || null,
  }),
);

// GET /api/app/sign/{token}/fields/{fieldId}/image – the stored signature image
export const GET = publicAppRoute(appGetSigningFieldImage, async ({ db, req, params }) =>
  pngResponse(await readFieldImage(db, signingRequest(req, params.token), { fieldId: params.fieldId })),
);
