"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { errorMessage, fieldErrors } from "@/components/lib/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { useSetupMutation, type TSetupInput } from "./query";

const EMPTY: TSetupInput = { name: "", email: "", password: "", organisationName: "" };

export function SetupForm() {
  const router = useRouter();
  const [values, setValues] = useState(EMPTY);
  const setup = useSetupMutation();
  const details = fieldErrors(setup.error);
  const general = setup.error && Object.keys(details).length === 0 ? errorMessage(setup.error) : null;

  const set = (key: keyof TSetupInput) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [key]: e.target.value }));

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setup.mutate(values, {
      onSuccess: (signedIn) => {
        router.replace(signedIn ? "/" : "/signin");
        router.refresh();
      },
    });
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5">
      {general ? <Alert tone="error">{general}</Alert> : null}
      <Field label="Organisation name" error={details.organisationName}>
        {(p) => (
          <Input
            {...p}
            name="organisationName"
            autoComplete="organization"
            value={values.organisationName}
            onChange={set("organisationName")}
            maxLength={200}
            required
          />
        )}
      </Field>
      <Field label="Your name" error={details.name}>
        {(p) => <Input {...p} name="name" autoComplete="name" value={values.name} onChange={set("name")} maxLength={200} required />}
      </Field>
      <Field label="Email" error={details.email}>
        {(p) => <Input {...p} name="email" type="email" autoComplete="email" value={values.email} onChange={set("email")} required />}
      </Field>
      <Field label="Password" error={details.password} hint="At least 10 characters.">
        {(p) => (
          <Input
            {...p}
            name="password"
            type="password"
            autoComplete="new-password"
            value={values.password}
            onChange={set("password")}
            maxLength={200}
            required
          />
        )}
      </Field>
      <Button type="submit" className="w-full" pending={setup.isPending}>
        Create organisation and sign in
      </Button>
    </form>
  );
}
