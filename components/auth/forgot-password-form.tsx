"use client";

import { useMutation } from "@tanstack/react-query";
import Link from "next/link";
import { useState, type FormEvent } from "react";
import { apiFetch, errorMessage, fieldErrors } from "@/components/lib/api-client";
import { Alert } from "@/components/ui/alert";
import { Button, buttonClasses } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";

/** Asks for a reset link by mail; the answer is the same whether the address is a member's or not. */
export function ForgotPasswordForm({ initialEmail = "" }: { initialEmail?: string }) {
  const [email, setEmail] = useState(initialEmail);
  const request = useMutation({
    mutationFn: (address: string) => apiFetch("/api/app/password-reset", { method: "POST", body: { email: address } }),
  });
  const details = fieldErrors(request.error);
  const general = request.error && Object.keys(details).length === 0 ? errorMessage(request.error) : null;

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    request.mutate(email);
  }

  if (request.isSuccess) {
    return (
      <div className="space-y-5">
        <Alert tone="success" title="Check your mail">
          If {request.variables} belongs to a member, a link to choose a new password is on its way. It works once, for an hour; your password stays as it is
          until then.
        </Alert>
        <Link href="/signin" className={buttonClasses("secondary", "md", "w-full")}>
          Back to sign in
        </Link>
      </div>
    );
  }
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5">
      {general ? <Alert tone="error">{general}</Alert> : null}
      <Field label="Email" error={details.email}>
        {(p) => <Input {...p} type="email" autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} autoFocus />}
      </Field>
      <Button type="submit" className="w-full" pending={request.isPending}>
        Email me a reset link
      </Button>
      <p className="text-center text-sm">
        <Link href="/signin" className="rounded-sm font-medium text-brand-700 hover:text-brand-600 hover:underline">
          Back to sign in
        </Link>
      </p>
    </form>
  );
}
