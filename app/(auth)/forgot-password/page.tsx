import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { AuthHeading } from "@/components/auth/auth-heading";
import { ForgotPasswordForm } from "@/components/auth/forgot-password-form";
import { buttonClasses } from "@/components/ui/button";
import { env } from "@/server/env";

export const metadata: Metadata = { title: "Forgot your password?" };

type TProps = { searchParams: Promise<{ email?: string }> };

/**
 * With a mail server, a reset link by mail; without one (mail would wait in the outbox, which members can read),
 * the other ways: the owner's link, or the operator's command (docs/decisions/passwords.md).
 */
export default async function ForgotPasswordPage({ searchParams }: TProps) {
  await connection();
  const { email } = await searchParams;
  if (env().SMTP_URL) {
    return (
      <>
        <AuthHeading title="Forgot your password?">Enter the email you sign in with: we send you a link to choose a new password.</AuthHeading>
        <ForgotPasswordForm initialEmail={email} />
      </>
    );
  }
  return (
    <>
      <AuthHeading title="Forgot your password?">This server sends no mail, so a new password comes from a one-time link.</AuthHeading>
      <div className="space-y-3 text-sm text-zinc-700">
        <p>Ask the owner of your organisation for a reset link: they make one under Settings → Members.</p>
        <p>
          If you are the owner, whoever runs this server can make you one with{" "}
          <code className="rounded bg-zinc-100 px-1 py-0.5 text-xs wrap-anywhere">npm run admin -- reset-password --email you@example.com</code>
        </p>
      </div>
      <Link href="/signin" className={buttonClasses("secondary", "md", "mt-6 w-full")}>
        Back to sign in
      </Link>
    </>
  );
}
