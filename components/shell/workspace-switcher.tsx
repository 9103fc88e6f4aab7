"use client";

import { useQueryClient } from "@tanstack/react-query";
import { usePathname, useRouter } from "next/navigation";
import { useId, useState, useTransition, type ReactNode } from "react";
import { apiFetch, errorMessage } from "@/components/lib/api-client";

export type TWorkspaceOption = { id: string; name: string; isTest?: boolean };

/**
 * Which workspace the app shows. The choice is stored in a cookie by the server, which checks it belongs to
 * the organisation; then every page and cached query is reloaded for the new workspace. A page about one
 * resource of the old workspace (an endpoint) goes back to its list, where the resource would not exist.
 */
export function WorkspaceSwitcher({ workspaces, currentId, badge }: { workspaces: TWorkspaceOption[]; currentId: string; badge?: ReactNode }) {
  const id = useId();
  const router = useRouter();
  const pathname = usePathname();
  const queryClient = useQueryClient();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);

  async function choose(workspaceId: string) {
    setError(null);
    try {
      await apiFetch("/api/app/current-workspace", { method: "POST", body: { workspaceId } });
    } catch (err) {
      setError(errorMessage(err));
      return;
    }
    queryClient.clear();
    startTransition(() => {
      if (/^\/webhooks\/.+/.test(pathname)) router.push("/webhooks");
      router.refresh();
    });
  }

  return (
    <div className="mt-3">
      <div className="flex items-center justify-between gap-2">
        <label htmlFor={id} className="block text-xs font-medium text-zinc-500">
          Workspace
        </label>
        {badge}
      </div>
      <select
        id={id}
        value={currentId}
        disabled={pending}
        onChange={(e) => void choose(e.target.value)}
        className="mt-1 block h-9 w-full rounded-md border border-zinc-300 bg-white px-2 text-sm text-zinc-900 shadow-sm focus:border-brand-600 focus:outline-2 focus:outline-brand-600/30"
        data-testid="workspace-switcher"
      >
        {workspaces.map((w) => (
          <option key={w.id} value={w.id}>
            {w.isTest ? `${w.name} (Test)` : w.name}
          </option>
        ))}
      </select>
      {error ? (
        <p role="alert" className="mt-1 text-xs text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
