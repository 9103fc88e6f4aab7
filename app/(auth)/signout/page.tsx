import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthHeading } from "@/components/auth/auth-heading";
import { SignOutForm } from "@/components/auth/signout-form";
import { getActiveSession } from "@/server/auth/session";

export const metadata: Metadata = { title: "Sign out" };

export default async function SignOutPage() {
  const session = await getActiveSession();
  if (!session) redirect("/signin");
  return (
    <>
      <AuthHeading title="Sign out?">
        You are signed in as {session.actor.user.email} ({session.organisationName}).
      </AuthHeading>
      <SignOutForm />
    </>
  );
}
