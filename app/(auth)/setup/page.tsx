import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { AuthHeading } from "@/components/auth/auth-heading";
import { SetupForm } from "@/components/auth/setup-form";
import { buttonClasses } from "@/components/ui/button";
import { getDb } from "@/server/db/client";
import { hasAnyUser } from "@/server/domain/organisation/create-organisation";

export const metadata: Metadata = { title: "Set up" };

export default async function SetupPage() {
  await connection();
  if (await hasAnyUser(await getDb())) {
    return (
      <>
        <AuthHeading title="Setup is closed">
          This Foliosign instance already has an owner. Sign in with your account, or ask the owner to add you as a member.
        </AuthHeading>
        <Link href="/signin" className={buttonClasses("primary", "md", "w-full")}>
          Go to sign in
        </Link>
      </>
    );
  }
  return (
    <>
      <AuthHeading title="Set up Foliosign">Create your organisation and its owner account. This page closes once the owner exists.</AuthHeading>
      <SetupForm />
    </>
  );
}
