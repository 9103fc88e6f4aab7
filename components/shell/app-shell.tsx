"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/components/ui/cn";
import { Logo } from "./logo";
import { isActive, visibleNav, type TNavPermission } from "./nav-items";
import { WorkspaceSwitcher, type TWorkspaceOption } from "./workspace-switcher";

type TAppShellProps = {
  user: { name: string; email: string; isOwner: boolean };
  organisationName: string;
  /** The organisation's workspaces and the one the app acts in (validated on the server for every request). */
  workspaces: TWorkspaceOption[];
  currentWorkspaceId: string;
  /** The current workspace is a test workspace: a "Test" badge by the workspace and a banner above every page. */
  testMode?: boolean;
  permissions: Partial<Record<TNavPermission, boolean>>;
  children: ReactNode;
};

function MenuIcon({ open }: { open: boolean }) {
  return (
    <svg viewBox="0 0 20 20" className="size-5" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round">
      {open ? <path d="M5 5l10 10M15 5L5 15" /> : <path d="M3 5.5h14M3 10h14M3 14.5h14" />}
    </svg>
  );
}

/**
 * The signed-in layout. From md up the navigation is a sticky sidebar; on a phone it collapses behind a Menu
 * button in a slim top bar (the open panel pushes the page down rather than covering it, and closes when a
 * link is followed), so every page starts with its own content rather than 540 px of navigation.
 */
/** Above every page of a test workspace (docs/decisions/test-mode.md): what test mode changes, in one line. */
function TestModeBanner() {
  return (
    <div
      className="mb-6 rounded-md border-2 border-dashed border-amber-500 bg-amber-100 px-4 py-3 text-sm text-amber-950"
      data-testid="test-mode-banner"
      role="note"
      aria-label="Test workspace"
    >
      <p>
        <TestBadge /> <strong className="font-semibold">You are in a test workspace.</strong> No mail leaves this instance (every message stays in the outbox),
        nothing counts against your plan, and sealed files are marked “TEST — not a valid signature”.
      </p>
    </div>
  );
}

function TestBadge() {
  return (
    <Badge tone="warning" className="font-semibold tracking-wide uppercase">
      Test
    </Badge>
  );
}

export function AppShell({ user, organisationName, workspaces, currentWorkspaceId, testMode = false, permissions, children }: TAppShellProps) {
  const pathname = usePathname();
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);

  // Escape closes the phone menu and puts the focus back on its button (unless a dialog on top takes it).
  useEffect(() => {
    if (!menuOpen) return;
    function onKeyDown(event: KeyboardEvent) {
      if (event.key !== "Escape" || event.defaultPrevented || document.querySelector("dialog[open]")) return;
      setMenuOpen(false);
      menuButton.current?.focus();
    }
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [menuOpen]);

  return (
    <div className="flex min-h-dvh flex-col md:flex-row">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      {/* A banner landmark, so the phone's logo and Menu button are inside a region (axe: region). */}
      <header className="flex items-center justify-between border-b border-zinc-200 bg-white px-4 py-2.5 md:hidden">
        <span className="flex items-center gap-2">
          <Link href="/" className="rounded-sm">
            <Logo />
          </Link>
          {testMode ? <TestBadge /> : null}
        </span>
        <button
          ref={menuButton}
          type="button"
          aria-expanded={menuOpen}
          aria-controls="app-navigation"
          onClick={() => setMenuOpen((open) => !open)}
          className="inline-flex items-center gap-1.5 rounded-md border border-zinc-200 px-2.5 py-1.5 text-sm font-medium text-zinc-700 hover:bg-zinc-100"
        >
          <MenuIcon open={menuOpen} />
          Menu
        </button>
      </header>
      <aside
        id="app-navigation"
        className={cn(
          "shrink-0 flex-col border-b border-zinc-200 bg-white md:sticky md:top-0 md:flex md:h-dvh md:w-64 md:border-r md:border-b-0",
          menuOpen ? "flex" : "hidden",
        )}
      >
        <div className="px-5 pt-5 pb-4">
          <Link href="/" className="hidden rounded-sm md:inline">
            <Logo />
          </Link>
          <p className="mt-1 truncate text-xs text-zinc-500" data-testid="organisation-name">
            {organisationName}
          </p>
          <WorkspaceSwitcher workspaces={workspaces} currentId={currentWorkspaceId} badge={testMode ? <TestBadge /> : null} />
        </div>
        <nav aria-label="Main" className="flex-1 overflow-y-auto px-3 pb-4">
          {visibleNav(user.isOwner, permissions).map((group, index) => (
            <div key={group.label ?? index} className={index > 0 ? "mt-6" : undefined}>
              {group.label ? <p className="px-2 pb-1 text-xs font-semibold tracking-wide text-zinc-500 uppercase">{group.label}</p> : null}
              <ul className="space-y-0.5">
                {group.items.map((item) => {
                  const active = isActive(pathname, item.href);
                  return (
                    <li key={item.href}>
                      <Link
                        href={item.href}
                        onClick={() => setMenuOpen(false)}
                        aria-current={active ? "page" : undefined}
                        className={cn(
                          "block rounded-md px-2 py-1.5 text-sm transition-colors",
                          active ? "bg-brand-50 font-medium text-brand-700" : "text-zinc-700 hover:bg-zinc-100 hover:text-zinc-900",
                        )}
                      >
                        {item.label}
                      </Link>
                    </li>
                  );
                })}
              </ul>
            </div>
          ))}
        </nav>
        <div className="border-t border-zinc-200 px-5 py-4">
          <p className="truncate text-sm font-medium text-zinc-900" data-testid="user-name">
            {user.name}
          </p>
          <p className="truncate text-xs text-zinc-500">
            {user.email}
            {user.isOwner ? " · Owner" : null}
          </p>
          <div className="mt-3 flex flex-wrap gap-x-4 gap-y-1">
            <Link
              href="/account"
              aria-current={isActive(pathname, "/account") ? "page" : undefined}
              className="inline-block rounded-sm text-sm font-medium text-brand-700 hover:text-brand-600 hover:underline"
            >
              Your account
            </Link>
            <Link href="/signout" className="inline-block rounded-sm text-sm font-medium text-brand-700 hover:text-brand-600 hover:underline">
              Sign out
            </Link>
          </div>
        </div>
      </aside>
      <main id="main" className="min-w-0 flex-1 px-5 py-8 md:px-10 md:py-10">
        <div className="mx-auto max-w-5xl">
          {testMode ? <TestModeBanner /> : null}
          {children}
        </div>
      </main>
    </div>
  );
}
