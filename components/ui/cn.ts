/** Joins class names, skipping falsy ones. (No tailwind-merge: primitives put overrides last on purpose.) */
export function cn(...classes: (string | false | null | undefined)[]): string {
  return classes.filter(Boolean).join(" ");
}
