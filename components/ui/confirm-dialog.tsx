"use client";

import type { ReactNode } from "react";
import { errorMessage } from "@/components/lib/api-client";
import { Alert } from "./alert";
import { Button } from "./button";
import { Dialog } from "./dialog";

type TConfirmDialogProps = {
  open: boolean;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  pending?: boolean;
  /** Shown inside the dialog when the action failed, so the user sees why without losing context. */
  error?: string | null;
  destructive?: boolean;
};

/** Asks before a destructive or permanent action. The cancel button gets focus first, never the action. */
export function ConfirmDialog({ open, title, description, confirmLabel, onConfirm, onCancel, pending, error, destructive = true }: TConfirmDialogProps) {
  return (
    <Dialog
      open={open}
      onClose={onCancel}
      title={title}
      description={description}
      size="sm"
      dismissible={!pending}
      footer={
        <>
          <Button variant="secondary" onClick={onCancel} disabled={pending} data-autofocus>
            Cancel
          </Button>
          <Button variant={destructive ? "danger" : "primary"} onClick={onConfirm} pending={pending}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      {error ? <Alert tone="error">{error}</Alert> : null}
    </Dialog>
  );
}

/** The part of a TanStack mutation keyed by an item's id that a confirmation needs. */
type TItemMutation = {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  reset: () => void;
  mutate: (id: string, options: { onSuccess: () => void }) => void;
};

type TConfirmItemDialogProps<T extends { id: string }> = {
  /** The item asked about; null closes the dialog. */
  item: T | null;
  onClose: () => void;
  mutation: TItemMutation;
  title: (item: T) => string;
  description: ReactNode;
  confirmLabel: string;
};

/**
 * Asks before a list's destructive action on one item (delete, revoke) and runs the mutation with its id: the
 * error stays in the dialog, cancelling clears it, success closes it.
 */
export function ConfirmItemDialog<T extends { id: string }>({ item, onClose, mutation, title, description, confirmLabel }: TConfirmItemDialogProps<T>) {
  return (
    <ConfirmDialog
      open={item !== null}
      title={item ? title(item) : ""}
      description={description}
      confirmLabel={confirmLabel}
      pending={mutation.isPending}
      error={mutation.isError ? errorMessage(mutation.error) : null}
      onCancel={() => {
        mutation.reset();
        onClose();
      }}
      onConfirm={() => item && mutation.mutate(item.id, { onSuccess: onClose })}
    />
  );
}
