import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthHeading } from "@/components/auth/auth-heading";
import { SignInForm } from "@/components/auth/signin-form";
import { getActiveSession } from "@/server/auth/session";
import { getDb } from "@/server/db/client";
import { hasAnyUser } from "@/server/domain/organisation/create-organisation";

export const metadata: Metadata = { title: "Sign in" };

type TProps = { searchParams: Promise<{ next?: string; email?: string }> };

export default async function SignInPage({ searchParams }: TProps) {
  if (await getActiveSession()) redirect("/");
  if (!(await hasAnyUser(await getDb()))) redirect("/setup");
  const { next, email } = await searchParams;
  return (
    <>
      <AuthHeading title="Sign in to Foliosign">Use the email and password of your Foliosign account.</AuthHeading>
      <SignInForm next={next} initialEmail={email} />
    </>
  );
}
