"use client";

import { useEffect, useId, useRef, type ReactNode } from "react";
import { cn } from "./cn";

type TDialogProps = {
  open: boolean;
  onClose: () => void;
  title: string;
  description?: ReactNode;
  children?: ReactNode;
  /** The action row. Forms put a <DialogFooter> inside themselves instead, so the submit button is in the form. */
  footer?: ReactNode;
  /** When false, Escape and the backdrop do not close it (e.g. a key shown once must be acknowledged). */
  dismissible?: boolean;
  size?: "sm" | "md" | "lg";
};

const WIDTHS = { sm: "max-w-sm", md: "max-w-lg", lg: "max-w-2xl" } as const;

/**
 * A modal on the native <dialog>: `showModal()` makes the rest of the page inert (focus stays inside) and
 * focuses the first focusable element, or the one marked `data-autofocus`; focus returns to whatever opened it.
 */
export function Dialog({ open, onClose, title, description, children, footer, dismissible = true, size = "md" }: TDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<Element | null>(null);
  const shown = useRef(false);
  const titleId = useId();
  const descriptionId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      opener.current = document.activeElement;
      dialog.showModal();
      shown.current = true;
      // React's autoFocus runs before the dialog is shown (and so does nothing); mark the target instead.
      dialog.querySelector<HTMLElement>("[data-autofocus]")?.focus();
    } else if (!open && dialog.open) {
      dialog.close();
      shown.current = false;
      restoreFocus(opener);
    }
  }, [open]);

  // A page may remove the dialog while it is open (`{x ? <Dialog open …/> : null}`) rather than pass
  // open={false}: the branch above never runs then, and the focus would fall to <body>. Give it back here too.
  useEffect(() => {
    const dialog = ref.current;
    return () => {
      if (!shown.current) return;
      shown.current = false;
      if (dialog?.open) dialog.close();
      restoreFocus(opener);
    };
  }, []);

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      className={cn("m-auto w-[calc(100%-2rem)] rounded-xl border border-zinc-200 bg-white p-0 text-zinc-900 shadow-xl", WIDTHS[size])}
      onCancel={(event) => {
        event.preventDefault();
        if (dismissible) onClose();
      }}
      onClick={(event) => {
        if (dismissible && event.target === event.currentTarget) onClose();
      }}
    >
      {open ? (
        <div className="flex flex-col">
          <div className="space-y-1 px-6 pt-6">
            <h2 id={titleId} className="text-lg font-semibold">
              {title}
            </h2>
            {description ? (
              <div id={descriptionId} className="text-sm text-zinc-600">
                {description}
              </div>
            ) : null}
          </div>
          {children ? <div className="px-6 pt-4">{children}</div> : null}
          {footer ? <DialogFooter>{footer}</DialogFooter> : null}
        </div>
      ) : null}
    </dialog>
  );
}

/** Focus back on what opened the dialog, if it is still on the page. */
function restoreFocus(opener: { current: Element | null }) {
  if (opener.current instanceof HTMLElement && opener.current.isConnected) opener.current.focus();
}

/** The bottom action row of a dialog (inside the dialog's content when a form owns its buttons). */
export function DialogFooter({ children, inset = false }: { children: ReactNode; inset?: boolean }) {
  return <div className={cn("mt-6 flex justify-end gap-3 rounded-b-xl border-t border-zinc-100 bg-zinc-50 px-6 py-4", inset && "-mx-6")}>{children}</div>;
}
