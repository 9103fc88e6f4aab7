import { openEmbeddedSigning } from "@/server/http/embed-open";

// GET /embed/sign/{token} – open a single-use embedded signing URL: the token is used up, the embed cookie set
export const GET = openEmbeddedSigning;
