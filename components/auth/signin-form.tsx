"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { safeReturnPath } from "@/common/return-path";
import { throttledMessage } from "@/common/sign-in-throttled";
import { signInWithPassword } from "./query";

/** Why the last attempt did not sign in: wrong credentials, or throttled with the seconds to wait. */
type TFailure = { kind: "credentials" } | { kind: "throttled"; retryAfterSeconds: number };

export function SignInForm({ next, initialEmail = "" }: { next?: string; initialEmail?: string }) {
  const router = useRouter();
  const [email, setEmail] = useState(initialEmail);
  const [password, setPassword] = useState("");
  const [failure, setFailure] = useState<TFailure | null>(null);
  const signIn = useMutation({ mutationFn: () => signInWithPassword(email, password) });

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    signIn.mutate(undefined, {
      onSuccess: (result) => {
        if (!result.ok) {
          setFailure(result.retryAfterSeconds ? { kind: "throttled", retryAfterSeconds: result.retryAfterSeconds } : { kind: "credentials" });
          return;
        }
        router.replace(safeReturnPath(next));
        router.refresh();
      },
      onError: () => setFailure({ kind: "credentials" }),
    });
  }

  return (
    <form onSubmit={onSubmit} className="space-y-5">
      {failure?.kind === "throttled" ? (
        <Alert tone="error" title={throttledMessage(failure.retryAfterSeconds)}>
          Sign-in is paused after repeated failed attempts, to protect the account from password guessing.
        </Alert>
      ) : failure ? (
        <Alert tone="error" title="Email or password is incorrect.">
          Check both and try again. Removed members can no longer sign in.
        </Alert>
      ) : null}
      <Field label="Email">
        {(p) => <Input {...p} name="email" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} required autoFocus />}
      </Field>
      <Field label="Password">
        {(p) => (
          <Input
            {...p}
            name="password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            required
          />
        )}
      </Field>
      <Button type="submit" className="w-full" pending={signIn.isPending}>
        Sign in
      </Button>
    </form>
  );
}
