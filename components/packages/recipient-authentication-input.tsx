"use client";

import { useState } from "react";
import { Field } from "@/components/ui/field";
import { Input, Select } from "@/components/ui/input";

export type TAuthenticationMethod = "NONE" | "ACCESS_CODE" | "EMAIL_CODE";
export type TRecipientAuthenticationInput = { method: TAuthenticationMethod; accessCode: string };

/** The choices a sender has, in the words the form, the template editor and the package page use. */
export const AUTHENTICATION_METHODS: { value: TAuthenticationMethod; label: string; hint: string }[] = [
  { value: "NONE", label: "Signing link only", hint: "Whoever opens the link in the invitation can sign." },
  { value: "ACCESS_CODE", label: "Access code", hint: "They enter a code you give them yourself before they see the document." },
  { value: "EMAIL_CODE", label: "Email code", hint: "They ask for a 6-digit code, mailed to their address, before they see the document." },
];

export function authenticationLabel(method: string): string {
  return AUTHENTICATION_METHODS.find((m) => m.value === method)?.label ?? method;
}

/**
 * The request body's `authentication` for one recipient, always explicit: leaving it out would take the
 * template role's preset even when the sender chose another method here. The code goes only with ACCESS_CODE.
 */
export function authenticationBody(value: TRecipientAuthenticationInput): { method: TAuthenticationMethod; accessCode?: string } {
  return value.method === "ACCESS_CODE" ? { method: "ACCESS_CODE", accessCode: value.accessCode } : { method: value.method };
}

type TProps = {
  /** The role's name, so each recipient's controls have their own label ("Identity check for Tenant"). */
  roleName: string;
  value: TRecipientAuthenticationInput;
  onChange: (value: TRecipientAuthenticationInput) => void;
  errors: { method?: string[]; accessCode?: string[] };
};

/**
 * How one recipient proves who they are before the signing page shows the document. The access code is typed
 * once, masked (with a Show toggle against typos), sent with the package and never shown again.
 */
export function RecipientAuthenticationInput({ roleName, value, onChange, errors }: TProps) {
  const [visible, setVisible] = useState(false);
  return (
    <>
      <Field label={`Identity check for ${roleName}`} hint={AUTHENTICATION_METHODS.find((m) => m.value === value.method)?.hint} error={errors.method}>
        {(p) => (
          <Select {...p} value={value.method} onChange={(e) => onChange({ ...value, method: e.target.value as TAuthenticationMethod })}>
            {AUTHENTICATION_METHODS.map((m) => (
              <option key={m.value} value={m.value}>
                {m.label}
              </option>
            ))}
          </Select>
        )}
      </Field>
      {value.method === "ACCESS_CODE" ? (
        <Field
          label={`Access code for ${roleName}`}
          hint="4 to 50 characters. Tell it to them by phone or in person: it is never emailed and cannot be shown again."
          error={errors.accessCode}
        >
          {(p) => (
            <div className="flex gap-2">
              <Input
                {...p}
                type={visible ? "text" : "password"}
                autoComplete="new-password"
                spellCheck={false}
                minLength={4}
                maxLength={50}
                value={value.accessCode}
                onChange={(e) => onChange({ ...value, accessCode: e.target.value })}
              />
              <button
                type="button"
                className="h-10 shrink-0 rounded-md border border-zinc-300 bg-white px-3 text-sm font-medium text-zinc-800 shadow-sm hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
                onClick={() => setVisible((v) => !v)}
              >
                {visible ? "Hide" : "Show"}
                <span className="sr-only"> the access code for {roleName}</span>
              </button>
            </div>
          )}
        </Field>
      ) : null}
    </>
  );
}
