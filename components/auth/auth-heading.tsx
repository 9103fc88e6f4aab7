import type { ReactNode } from "react";

export function AuthHeading({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="mb-6 space-y-1">
      <h1 className="text-xl font-semibold tracking-tight text-zinc-900">{title}</h1>
      {children ? <p className="text-sm text-zinc-600">{children}</p> : null}
    </div>
  );
}
