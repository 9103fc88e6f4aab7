import type { NextRequest } from "next/server";
import NextAuth from "next-auth";
import { getAuthOptions } from "@/server/auth/options";
import { isSameOriginWrite } from "@/server/auth/same-origin-write";
import { json } from "@/server/http/errors";

type TContext = { params: Promise<{ nextauth: string[] }> };

// GET /api/auth/* – next-auth (session, providers, CSRF token)
async function handler(req: NextRequest, context: TContext): Promise<Response> {
  return (await NextAuth(req, context, getAuthOptions())) as Response;
}

// POST /api/auth/* – next-auth (credentials sign-in, sign-out): its CSRF token, and only from the app's own origin
// (a sibling origin could toss a CSRF cookie over plain http; server/auth/same-origin-write.ts)
async function post(req: NextRequest, context: TContext): Promise<Response> {
  if (!isSameOriginWrite(req)) return json({ error: "Cross-origin request refused" }, 403);
  return handler(req, context);
}

export { handler as GET, post as POST };
