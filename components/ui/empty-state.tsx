import type { ReactNode } from "react";

/** What a list shows when it has nothing yet: what will be here and how to start. */
export function EmptyState({ title, description, action }: { title: string; description?: ReactNode; action?: ReactNode }) {
  return (
    <div className="flex flex-col items-center justify-center gap-2 px-6 py-12 text-center">
      <div className="mb-2 flex size-10 items-center justify-center rounded-full bg-zinc-100 text-zinc-400" aria-hidden="true">
        <svg viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth="1.8">
          <rect x="4" y="4" width="16" height="16" rx="3" />
          <path d="M8 12h8" strokeLinecap="round" />
        </svg>
      </div>
      <p className="text-sm font-medium text-zinc-900">{title}</p>
      {description ? <p className="max-w-md text-sm text-zinc-500">{description}</p> : null}
      {action ? <div className="mt-3">{action}</div> : null}
    </div>
  );
}
