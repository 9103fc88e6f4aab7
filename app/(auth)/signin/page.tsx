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
      <details className="mt-6 text-sm text-zinc-600">
        <summary className="cursor-pointer rounded-sm font-medium text-brand-700 hover:text-brand-600">Forgot your password?</summary>
        <div className="mt-2 space-y-2">
          <p>Ask the owner of your organisation for a reset link: they make one under Settings → Members.</p>
          <p>
            If you are the owner, whoever runs this server can make you one with{" "}
            <code className="rounded bg-zinc-100 px-1 py-0.5 text-xs wrap-anywhere">npm run admin -- reset-password --email you@example.com</code>
          </p>
        </div>
      </details>
    </>
  );
}
