import type { ReactNode } from "react";
import { cn } from "./cn";

export function Card({ children, className }: { children: ReactNode; className?: string }) {
  return <section className={cn("rounded-xl border border-zinc-200 bg-white shadow-sm", className)}>{children}</section>;
}

export function CardHeader({ title, description, actions }: { title: string; description?: ReactNode; actions?: ReactNode }) {
  return (
    <div className="flex flex-wrap items-start justify-between gap-4 border-b border-zinc-100 px-6 py-4 sm:flex-nowrap">
      <div className="min-w-0 space-y-1">
        <h2 className="text-base font-semibold wrap-anywhere text-zinc-900">{title}</h2>
        {description ? <p className="text-sm wrap-anywhere text-zinc-600">{description}</p> : null}
      </div>
      {actions ? <div className="flex shrink-0 items-center gap-2">{actions}</div> : null}
    </div>
  );
}

export function CardBody({ children, className }: { children: ReactNode; className?: string }) {
  return <div className={cn("px-6 py-5", className)}>{children}</div>;
}
