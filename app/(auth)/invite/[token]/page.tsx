import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { AuthHeading } from "@/components/auth/auth-heading";
import { AcceptInviteForm } from "@/components/members/accept-invite-form";
import { buttonClasses } from "@/components/ui/button";
import { getDb } from "@/server/db/client";
import { getInvite } from "@/server/domain/organisation/accept-invite";
import { AppError } from "@/server/lib/errors";

export const metadata: Metadata = { title: "Set your password" };

type TProps = { params: Promise<{ token: string }> };

export default async function AcceptInvitePage({ params }: TProps) {
  await connection();
  const { token } = await params;
  const invite = await getInvite(await getDb(), token).catch((err: unknown) => {
    if (err instanceof AppError && err.kind === "NOT_FOUND") return null;
    throw err;
  });
  if (!invite) {
    return (
      <>
        <AuthHeading title="This link cannot be used">
          It is invalid, was already used, or has expired. Ask the owner of your organisation for a new one.
        </AuthHeading>
        <Link href="/signin" className={buttonClasses("secondary", "md", "w-full")}>
          Go to sign in
        </Link>
      </>
    );
  }
  if (invite.purpose === "reset") {
    return (
      <>
        <AuthHeading title="Choose a new password">
          This link works once. Once your new password is set, every session of yours is signed out and you are signed in here.
        </AuthHeading>
        <AcceptInviteForm token={token} email={invite.email} name={invite.name} purpose="reset" />
      </>
    );
  }
  return (
    <>
      <AuthHeading title="Join Foliosign">Choose a password to finish setting up your account. This link works once.</AuthHeading>
      <AcceptInviteForm token={token} email={invite.email} name={invite.name} purpose="invite" />
    </>
  );
}
