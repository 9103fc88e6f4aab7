import type { NextRequest } from "next/server";
import NextAuth from "next-auth";
import { getAuthOptions } from "@/server/auth/options";

type TContext = { params: Promise<{ nextauth: string[] }> };

// GET|POST /api/auth/* – next-auth (credentials sign-in, session, sign-out, CSRF token)
async function handler(req: NextRequest, context: TContext): Promise<Response> {
  return (await NextAuth(req, context, getAuthOptions())) as Response;
}

export { handler as GET, handler as POST };
