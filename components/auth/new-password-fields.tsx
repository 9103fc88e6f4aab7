"use client";

import { useState } from "react";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";

const PASSWORDS_DIFFER = "The passwords do not match";

/** A new password and its repetition, as NewPasswordFields shows them. */
type TNewPassword = ReturnType<typeof useNewPassword>;

/** The state of NewPasswordFields: the password, its repetition and whether a submit found them different. */
export function useNewPassword() {
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [mismatch, setMismatch] = useState(false);
  return {
    password,
    confirm,
    mismatch,
    setPassword,
    setConfirm,
    /** On submit: whether the repetition matches; when it does not, the form shows why and should not send. */
    matches(): boolean {
      setMismatch(password !== confirm);
      return password === confirm;
    },
    clear() {
      setPassword("");
      setConfirm("");
    },
  };
}

type TProps = {
  state: TNewPassword;
  label: string;
  repeatLabel: string;
  /** The server's messages for the new password (e.g. its `newPassword` or `password` field). */
  error?: readonly string[];
  autoFocus?: boolean;
};

/**
 * A new password and its repetition (changing one's own, an invitation or a reset link): the rule as the first
 * field's hint, the server's messages on it, and the repetition's mismatch on the second (checked on submit by
 * `state.matches()`). Both tell password managers this is a new password.
 */
export function NewPasswordFields({ state, label, repeatLabel, error, autoFocus }: TProps) {
  return (
    <>
      <Field label={label} error={error} hint="At least 10 characters.">
        {(p) => (
          <Input
            {...p}
            type="password"
            autoComplete="new-password"
            value={state.password}
            onChange={(e) => state.setPassword(e.target.value)}
            autoFocus={autoFocus}
          />
        )}
      </Field>
      <Field label={repeatLabel} error={state.mismatch ? PASSWORDS_DIFFER : undefined}>
        {(p) => <Input {...p} type="password" autoComplete="new-password" value={state.confirm} onChange={(e) => state.setConfirm(e.target.value)} />}
      </Field>
    </>
  );
}
