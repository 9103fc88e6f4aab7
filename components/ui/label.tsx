import type { ComponentProps } from "react";
import { cn } from "./cn";

export function Label({ className, children, ...rest }: ComponentProps<"label">) {
  return (
    <label className={cn("block text-sm font-medium text-zinc-800", className)} {...rest}>
      {children}
    </label>
  );
}
