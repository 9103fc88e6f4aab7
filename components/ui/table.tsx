import type { ComponentProps } from "react";
import { cn } from "./cn";

/**
 * A table that scrolls inside its own box when it is wider than the screen. The box is `relative` so that
 * absolutely positioned content (the `sr-only` labels of action buttons) stays inside it: otherwise such
 * content escapes the scroll box and widens the whole page on a phone. The box takes the keyboard focus (a
 * region named like the table), so a keyboard user can scroll it too (axe: scrollable-region-focusable).
 */
export function Table({ className, children, ...rest }: ComponentProps<"table">) {
  const label = rest["aria-label"];
  return (
    <div
      className="relative overflow-x-auto rounded-sm focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-600"
      data-table-scroll
      tabIndex={0}
      {...(label ? { role: "region", "aria-label": label } : { role: "group", "aria-label": "Table" })}
    >
      <table className={cn("w-full text-left text-sm", className)} {...rest}>
        {children}
      </table>
    </div>
  );
}

export function THead({ className, ...rest }: ComponentProps<"thead">) {
  return <thead className={cn("border-b border-zinc-200 bg-zinc-50 text-xs font-medium tracking-wide text-zinc-500 uppercase", className)} {...rest} />;
}

export function TBody({ className, ...rest }: ComponentProps<"tbody">) {
  return <tbody className={cn("divide-y divide-zinc-100", className)} {...rest} />;
}

export function TR({ className, ...rest }: ComponentProps<"tr">) {
  return <tr className={cn("align-middle", className)} {...rest} />;
}

export function TH({ className, ...rest }: ComponentProps<"th">) {
  return <th scope="col" className={cn("px-3 py-3 font-medium sm:px-6", className)} {...rest} />;
}

export function TD({ className, ...rest }: ComponentProps<"td">) {
  return <td className={cn("px-3 py-4 text-zinc-700 sm:px-6", className)} {...rest} />;
}
