import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { safeReturnPath } from "@/common/return-path";
import { AuthHeading } from "@/components/auth/auth-heading";
import { SignInForm } from "@/components/auth/signin-form";
import { getActiveSession } from "@/server/auth/session";
import { getDb } from "@/server/db/client";
import { hasAnyUser } from "@/server/domain/organisation/create-organisation";

export const metadata: Metadata = { title: "Sign in" };

type TProps = { searchParams: Promise<{ next?: string; email?: string }> };

export default async function SignInPage({ searchParams }: TProps) {
  const { next, email } = await searchParams;
  // Signed in already (the link opened in another tab): straight to the page it names.
  if (await getActiveSession()) redirect(safeReturnPath(next));
  if (!(await hasAnyUser(await getDb()))) redirect("/setup");
  return (
    <>
      <AuthHeading title="Sign in to Foliosign">Use the email and password of your Foliosign account.</AuthHeading>
      <SignInForm next={next} initialEmail={email} />
      <p className="mt-6 text-center text-sm">
        <Link
          href={email ? `/forgot-password?email=${encodeURIComponent(email)}` : "/forgot-password"}
          className="rounded-sm font-medium text-brand-700 hover:text-brand-600 hover:underline"
        >
          Forgot your password?
        </Link>
      </p>
    </>
  );
}
