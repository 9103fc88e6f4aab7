"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { apiFetch, errorMessage, fieldErrors } from "@/components/lib/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";

/** The member's own name; the shell shows the new one once saved. */
export function ProfileNameForm({ name: initial }: { name: string }) {
  const router = useRouter();
  const [name, setName] = useState(initial);
  const rename = useMutation({
    mutationFn: (value: string) => apiFetch<{ name: string }>("/api/app/me", { method: "PATCH", body: { name: value } }),
    onSuccess: (saved) => {
      setName(saved.name);
      router.refresh();
    },
  });
  const details = fieldErrors(rename.error);
  const general = rename.error && Object.keys(details).length === 0 ? errorMessage(rename.error) : null;

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    rename.mutate(name);
  }

  return (
    <form onSubmit={onSubmit} noValidate className="max-w-md space-y-4">
      {rename.isSuccess ? <Alert tone="success">Your name was saved.</Alert> : null}
      {general ? <Alert tone="error">{general}</Alert> : null}
      <Field label="Your name" error={details.name}>
        {(p) => (
          <Input
            {...p}
            value={name}
            autoComplete="name"
            onChange={(e) => {
              rename.reset();
              setName(e.target.value);
            }}
          />
        )}
      </Field>
      <Button type="submit" variant="secondary" pending={rename.isPending} disabled={name.trim() === initial}>
        Save name
      </Button>
    </form>
  );
}
