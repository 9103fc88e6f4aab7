export function Logo({ className }: { className?: string }) {
  return (
    <span className={className}>
      <span className="inline-flex items-center gap-2 text-base font-semibold tracking-tight text-zinc-900">
        <svg viewBox="0 0 24 24" className="size-6 text-brand-600" aria-hidden="true">
          <rect x="3" y="2" width="15" height="20" rx="2.5" fill="currentColor" opacity="0.15" />
          <rect x="3" y="2" width="15" height="20" rx="2.5" fill="none" stroke="currentColor" strokeWidth="1.6" />
          <path d="M7 15c1.5-2 2.5-2 3 0s1.8 1.5 3-0.5 2 0 3.5 1" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
          <path d="M7 7h7M7 10h5" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
        </svg>
        Foliosign
      </span>
    </span>
  );
}
