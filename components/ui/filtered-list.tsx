"use client";

import { useEffect, useState, type Dispatch, type ReactNode, type SetStateAction } from "react";
import { plural } from "@/components/lib/format";
import { Button } from "./button";
import { cn } from "./cn";
import { Input, Select } from "./input";

/** A paged list's filters: a status tab, a search and a page (back to 1 whenever the others change). */
export type TListFilters<S extends string> = { status: S; search: string; page: number };

/**
 * The filters of a list with a search box: what is typed reaches `filters.search` 300 ms after the last
 * keystroke, so searching as one types costs no request per key.
 */
export function useListFilters<S extends string>(initialStatus: S) {
  const [filters, setFilters] = useState<TListFilters<S>>({ status: initialStatus, search: "", page: 1 });
  const [typed, setTyped] = useState("");
  useEffect(() => {
    const timer = setTimeout(() => setFilters((f) => (f.search === typed ? f : { ...f, search: typed, page: 1 })), 300);
    return () => clearTimeout(timer);
  }, [typed]);
  return { filters, setFilters, typed, setTyped };
}

type TToolbarProps<S extends string> = {
  /** Names the tab list and the search box, e.g. "Package" → "Package status", "Search packages". */
  noun: string;
  tabs: readonly { value: S; label: string }[];
  filters: TListFilters<S>;
  setFilters: Dispatch<SetStateAction<TListFilters<S>>>;
  typed: string;
  setTyped: (value: string) => void;
  searchPlaceholder: string;
  /** E.g. the list's "New …" button, after the search box. */
  action?: ReactNode;
};

/** The bar above a list: status tabs, then the search box (full width on a phone) and an optional action. */
export function ListToolbar<S extends string>({ noun, tabs, filters, setFilters, typed, setTyped, searchPlaceholder, action }: TToolbarProps<S>) {
  const searchId = `${noun.toLowerCase()}-search`;
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 border-b border-zinc-100 px-4 py-4 sm:px-6">
      <div role="tablist" aria-label={`${noun} status`} className="flex flex-wrap gap-1">
        {tabs.map((tab) => (
          <button
            key={tab.value}
            type="button"
            role="tab"
            aria-selected={filters.status === tab.value}
            onClick={() => setFilters((f) => ({ ...f, status: tab.value, page: 1 }))}
            className={cn(
              "shrink-0 rounded-md px-3 py-1.5 text-sm font-medium whitespace-nowrap focus-visible:outline-2 focus-visible:outline-brand-600",
              filters.status === tab.value ? "bg-brand-50 text-brand-700" : "text-zinc-600 hover:bg-zinc-100",
            )}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <div className={cn("flex w-full flex-wrap items-center gap-3", action ? "sm:w-auto" : null)}>
        <label className="sr-only" htmlFor={searchId}>
          Search {noun.toLowerCase()}s
        </label>
        <Input
          id={searchId}
          type="search"
          placeholder={searchPlaceholder}
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          className={cn("h-9 min-w-0 flex-1", action ? "sm:w-64" : "sm:max-w-xs")}
        />
        {action}
      </div>
    </div>
  );
}

type TPagerProps = {
  noun: string;
  totalCount: number;
  pageSize: number;
  page: number;
  onPage: (page: number) => void;
};

/** "N things · page x of y" with Previous/Next; nothing when everything fits on one page. */
export function ListPager({ noun, totalCount, pageSize, page, onPage }: TPagerProps) {
  if (totalCount <= pageSize) return null;
  const pages = Math.max(1, Math.ceil(totalCount / pageSize));
  return (
    <nav aria-label={`${noun} pages`} className="flex flex-wrap items-center justify-between gap-2 border-t border-zinc-100 px-6 py-3 text-sm text-zinc-600">
      <span>
        {plural(totalCount, noun.toLowerCase())} · page {page} of {pages}
      </span>
      <span className="flex gap-2">
        <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          Previous
        </Button>
        <Button variant="secondary" size="sm" disabled={page >= pages} onClick={() => onPage(page + 1)}>
          Next
        </Button>
      </span>
    </nav>
  );
}

/**
 * A list's one filter as a labelled select above it: "All" (or `allLabel`, undefined) and the given values. The
 * caller keeps the value and its page, and goes back to the first page in `onChange`.
 */
export function ListFilterSelect<V extends string>({
  label,
  value,
  options,
  allLabel = "All",
  className = "w-40",
  onChange,
}: {
  label: string;
  value: V | undefined;
  options: readonly (readonly [V, string])[];
  allLabel?: string;
  className?: string;
  onChange: (value: V | undefined) => void;
}) {
  return (
    <div className="flex flex-wrap gap-3 border-b border-zinc-100 px-6 py-3">
      <label className="flex items-center gap-2 text-sm text-zinc-700">
        {label}
        <Select className={cn("h-9", className)} value={value ?? ""} onChange={(e) => onChange((e.target.value || undefined) as V | undefined)}>
          <option value="">{allLabel}</option>
          {options.map(([v, text]) => (
            <option key={v} value={v}>
              {text}
            </option>
          ))}
        </Select>
      </label>
    </div>
  );
}
