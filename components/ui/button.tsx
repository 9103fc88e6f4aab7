import type { ComponentProps } from "react";
import { cn } from "./cn";

export type TButtonVariant = "primary" | "secondary" | "danger" | "ghost" | "danger-ghost";

const VARIANTS: Record<TButtonVariant, string> = {
  primary: "bg-brand-600 text-white shadow-sm hover:bg-brand-700 disabled:bg-brand-600/60",
  secondary: "border border-zinc-300 bg-white text-zinc-800 shadow-sm hover:bg-zinc-50 disabled:text-zinc-400",
  danger: "bg-red-600 text-white shadow-sm hover:bg-red-700 disabled:bg-red-600/60",
  ghost: "text-zinc-700 hover:bg-zinc-100 disabled:text-zinc-400",
  "danger-ghost": "text-red-700 hover:bg-red-50 disabled:text-zinc-400 disabled:hover:bg-transparent",
};

const SIZES = { sm: "h-8 px-3 text-sm", md: "h-10 px-4 text-sm" } as const;

export type TButtonProps = ComponentProps<"button"> & {
  variant?: TButtonVariant;
  size?: keyof typeof SIZES;
  /** Shows a working state and disables the button while an action runs. */
  pending?: boolean;
};

export function buttonClasses(variant: TButtonVariant = "primary", size: keyof typeof SIZES = "md", extra?: string): string {
  return cn(
    "inline-flex items-center justify-center gap-2 rounded-md font-medium whitespace-nowrap transition-colors",
    "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:cursor-not-allowed",
    VARIANTS[variant],
    SIZES[size],
    extra,
  );
}

export function Button({ variant = "primary", size = "md", pending = false, className, disabled, children, type, ...rest }: TButtonProps) {
  return (
    <button
      type={type ?? "button"}
      className={buttonClasses(variant, size, className)}
      disabled={disabled || pending}
      aria-busy={pending || undefined}
      {...rest}
    >
      {pending ? <Spinner /> : null}
      {children}
    </button>
  );
}

function Spinner() {
  return (
    <svg className="size-4 animate-spin" viewBox="0 0 24 24" fill="none" aria-hidden="true">
      <circle cx="12" cy="12" r="9" stroke="currentColor" strokeOpacity="0.3" strokeWidth="3" />
      <path d="M21 12a9 9 0 0 0-9-9" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
    </svg>
  );
}
