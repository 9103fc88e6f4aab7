import type { ComponentProps } from "react";
import { cn } from "./cn";

const FIELD =
  "block w-full rounded-md border border-zinc-300 bg-white px-3 text-sm text-zinc-900 shadow-sm placeholder:text-zinc-400 " +
  "focus:border-brand-600 focus:outline-2 focus:outline-offset-0 focus:outline-brand-600/30 " +
  "disabled:bg-zinc-100 disabled:text-zinc-500 aria-[invalid=true]:border-red-500 aria-[invalid=true]:focus:outline-red-500/30";

export function Input({ className, ...rest }: ComponentProps<"input">) {
  return <input className={cn(FIELD, "h-10", className)} {...rest} />;
}

export function Textarea({ className, ...rest }: ComponentProps<"textarea">) {
  return <textarea className={cn(FIELD, "min-h-24 py-2", className)} {...rest} />;
}

export function Select({ className, children, ...rest }: ComponentProps<"select">) {
  return (
    <select className={cn(FIELD, "h-10 pr-8", className)} {...rest}>
      {children}
    </select>
  );
}

export function Checkbox({ className, ...rest }: Omit<ComponentProps<"input">, "type">) {
  return (
    <input
      type="checkbox"
      className={cn("size-4 rounded border-zinc-300 accent-brand-600 focus-visible:outline-2 focus-visible:outline-brand-600", className)}
      {...rest}
    />
  );
}
