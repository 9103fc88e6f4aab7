"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
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
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [mismatch, setMismatch] = useState(false);
  const details = fieldErrors(accept.error);
  const general = accept.error && Object.keys(details).length === 0 ? errorMessage(accept.error) : null;

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (password !== confirm) {
      setMismatch(true);
      return;
    }
    setMismatch(false);
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
      <Field label={purpose === "reset" ? "New password" : "Choose a password"} error={details.password} hint="At least 10 characters.">
        {(p) => <Input {...p} type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} autoFocus />}
      </Field>
      <Field label="Repeat the password" error={mismatch ? "The passwords do not match" : undefined}>
        {(p) => <Input {...p} type="password" autoComplete="new-password" value={confirm} onChange={(e) => setConfirm(e.target.value)} />}
      </Field>
      <Button type="submit" className="w-full" pending={accept.isPending}>
        {purpose === "reset" ? "Set the new password and sign in" : "Set password and sign in"}
      </Button>
    </form>
  );
}
