"use client";

import { useId } from "react";
import { AUTHENTICATION_METHODS, type TAuthenticationMethod } from "@/components/packages/recipient-authentication-input";
import { Select } from "@/components/ui/input";

/**
 * Under a role in the template editor: how its signer proves who they are, preset for every package made from
 * the template (the sender may change it per package; an access code itself is given per package).
 */
export function RoleAuthentication({
  roleName,
  method,
  readOnly,
  onChange,
}: {
  roleName: string;
  method: TAuthenticationMethod;
  readOnly: boolean;
  onChange: (method: TAuthenticationMethod) => void;
}) {
  const id = useId();
  return (
    <div className="flex basis-full items-center gap-2 pl-5">
      <label htmlFor={id} className="shrink-0 text-xs text-zinc-600">
        Identity check<span className="sr-only"> for {roleName}</span>
      </label>
      <Select
        id={id}
        value={method}
        disabled={readOnly}
        onChange={(e) => onChange(e.target.value as TAuthenticationMethod)}
        className="h-8 min-w-0 flex-1 pl-2! pr-6! text-xs"
      >
        {AUTHENTICATION_METHODS.map((m) => (
          <option key={m.value} value={m.value}>
            {m.label}
          </option>
        ))}
      </Select>
    </div>
  );
}
