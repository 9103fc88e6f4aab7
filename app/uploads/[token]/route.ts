import { uploadRoute } from "@/server/http/upload-route";

// PUT /uploads/{token} – the bytes of a document added with POST …/documents; the token is the credential
export const PUT = uploadRoute;
