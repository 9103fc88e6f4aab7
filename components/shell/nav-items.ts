export type TNavPermission = "canManageWebhooks" | "canSendPackages";
export type TNavItem = { href: string; label: string; ownerOnly?: boolean; permission?: TNavPermission };
export type TNavGroup = { label?: string; items: TNavItem[] };

/**
 * The navigation of the signed-in app. API keys, Security and Activity are for owners only; Webhooks for owners and
 * roles with canManageWebhooks (and Embedded signing), Mail for those with canSendPackages (the pages answer 403 to others, and the entry
 * is not shown to them); Mail delivery (the test message) and Readiness for owners.
 */
export const NAV: TNavGroup[] = [
  {
    items: [
      { href: "/", label: "Overview" },
      { href: "/packages", label: "Packages" },
      { href: "/templates", label: "Templates" },
      { href: "/library", label: "Library" },
      { href: "/webhooks", label: "Webhooks", permission: "canManageWebhooks" },
      { href: "/mail", label: "Mail", permission: "canSendPackages" },
    ],
  },
  {
    label: "Settings",
    items: [
      { href: "/settings/api-keys", label: "API keys", ownerOnly: true },
      { href: "/settings/members", label: "Members" },
      { href: "/settings/roles", label: "Roles" },
      { href: "/settings/workspaces", label: "Workspaces" },
      { href: "/settings/signing-groups", label: "Signing groups" },
      { href: "/settings/custom-fields", label: "Custom fields" },
      { href: "/settings/embedding", label: "Embedded signing", permission: "canManageWebhooks" },
      { href: "/settings/plan", label: "Plan" },
      { href: "/settings/security", label: "Security", ownerOnly: true },
      { href: "/settings/activity", label: "Activity", ownerOnly: true },
      { href: "/settings/mail", label: "Mail delivery", ownerOnly: true },
      { href: "/settings/readiness", label: "Readiness", ownerOnly: true },
    ],
  },
];

export function visibleNav(isOwner: boolean, permissions: Partial<Record<TNavPermission, boolean>> = {}): TNavGroup[] {
  const allowed = (i: TNavItem) => isOwner || (!i.ownerOnly && (!i.permission || permissions[i.permission] === true));
  return NAV.map((g) => ({ ...g, items: g.items.filter(allowed) }));
}

export function isActive(pathname: string, href: string): boolean {
  return href === "/" ? pathname === "/" : pathname === href || pathname.startsWith(`${href}/`);
}
