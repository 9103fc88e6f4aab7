"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { NewPasswordFields, useNewPassword } from "@/components/auth/new-password-fields";
import { signInWithPassword } from "@/components/auth/query";
import { errorMessage, fieldErrors } from "@/components/lib/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { useAcceptInvite } from "./query";

/** An invitation asks for the member's name and a password; a reset link only for the new password. */
export function AcceptInviteForm({ token, email, name: initialName, purpose }: { token: string; email: string; name: string; purpose: "invite" | "reset" }) {
  const router = useRouter();
  const accept = useAcceptInvite(token);
  const [name, setName] = useState(initialName);
  const newPassword = useNewPassword();
  const details = fieldErrors(accept.error);
  const general = accept.error && Object.keys(details).length === 0 ? errorMessage(accept.error) : null;

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!newPassword.matches()) return;
    const password = newPassword.password;
    accept.mutate(purpose === "reset" ? { password } : { name, password }, {
      onSuccess: async (user) => {
        const signedIn = await signInWithPassword(user.email, password);
        router.replace(signedIn.ok ? "/" : `/signin?email=${encodeURIComponent(user.email)}`);
        router.refresh();
      },
    });
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5">
      {general ? <Alert tone="error">{general}</Alert> : null}
      <Field label="Email">{(p) => <Input {...p} value={email} autoComplete="username" readOnly disabled />}</Field>
      {purpose === "invite" ? (
        <Field label="Your name" error={details.name}>
          {(p) => <Input {...p} value={name} autoComplete="name" onChange={(e) => setName(e.target.value)} />}
        </Field>
      ) : null}
      <NewPasswordFields
        state={newPassword}
        label={purpose === "reset" ? "New password" : "Choose a password"}
        repeatLabel="Repeat the password"
        error={details.password}
        autoFocus
      />
      <Button type="submit" className="w-full" pending={accept.isPending}>
        {purpose === "reset" ? "Set the new password and sign in" : "Set password and sign in"}
      </Button>
    </form>
  );
}
