"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { NewPasswordFields, useNewPassword } from "@/components/auth/new-password-fields";
import { signInWithPassword } from "@/components/auth/query";
import { apiFetch, errorMessage, fieldErrors } from "@/components/lib/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";

type TChange = { currentPassword: string; newPassword: string };

/**
 * The signed-in member's password. The server ends every session of theirs (docs/decisions/passwords.md), so
 * this browser signs in again at once with the new password; if that fails, the sign-in page says what to do.
 */
export function ChangePasswordForm({ email }: { email: string }) {
  const router = useRouter();
  const change = useMutation({
    mutationFn: async (input: TChange) => {
      await apiFetch("/api/app/me/password", { method: "POST", body: input });
      return (await signInWithPassword(email, input.newPassword)).ok;
    },
  });
  const [current, setCurrent] = useState("");
  const next = useNewPassword();
  const details = fieldErrors(change.error);
  const general = change.error && Object.keys(details).length === 0 ? errorMessage(change.error) : null;

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!next.matches()) return;
    change.mutate(
      { currentPassword: current, newPassword: next.password },
      {
        onSuccess: (signedInAgain) => {
          setCurrent("");
          next.clear();
          if (!signedInAgain) router.push(`/signin?email=${encodeURIComponent(email)}`);
        },
      },
    );
  }

  return (
    <Card>
      <CardHeader title="Password" description="Changing it signs you out on every other device and browser." />
      <CardBody>
        <form onSubmit={onSubmit} noValidate className="max-w-md space-y-5">
          {change.isSuccess ? (
            <Alert tone="success" title="Your password was changed.">
              Every other session of yours was signed out.
            </Alert>
          ) : null}
          {general ? <Alert tone="error">{general}</Alert> : null}
          {/* For password managers: the account the new password belongs to. */}
          <input type="email" name="email" autoComplete="username" value={email} readOnly hidden />
          <Field label="Current password" error={details.currentPassword}>
            {(p) => <Input {...p} type="password" autoComplete="current-password" value={current} onChange={(e) => setCurrent(e.target.value)} />}
          </Field>
          <NewPasswordFields state={next} label="New password" repeatLabel="Repeat the new password" error={details.newPassword} />
          <Button type="submit" pending={change.isPending}>
            Change password
          </Button>
        </form>
      </CardBody>
    </Card>
  );
}
