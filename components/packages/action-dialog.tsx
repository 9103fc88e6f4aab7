"use client";

import type { FormEvent, ReactNode } from "react";
import { ApiError, errorMessage } from "@/components/lib/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";

/** The API's answer in full: its message, then each detail with the field it is about. */
export function ApiErrorAlert({ error, className }: { error: unknown; className?: string }) {
  if (!error) return null;
  const details = error instanceof ApiError ? Object.entries(error.details) : [];
  return (
    <Alert tone="error" className={className}>
      <p>{errorMessage(error)}</p>
      {details.length > 0 ? (
        <ul className="mt-1 list-disc space-y-0.5 pl-5">
          {details.map(([path, messages]) => (
            <li key={path}>
              <span className="font-mono text-xs">{path}</span>: {messages.join(" ")}
            </li>
          ))}
        </ul>
      ) : null}
    </Alert>
  );
}

type TActionDialogProps = {
  open: boolean;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  pending?: boolean;
  error?: unknown;
  destructive?: boolean;
  confirmDisabled?: boolean;
  children?: ReactNode;
};

/**
 * Every package action asks first. The inputs an action needs (a reason, a time, a member) are in the dialog's
 * form, and the API's refusal is shown inside it, so the user sees why without losing what they typed.
 */
export function ActionDialog({
  open,
  title,
  description,
  confirmLabel,
  onConfirm,
  onCancel,
  pending,
  error,
  destructive,
  confirmDisabled,
  children,
}: TActionDialogProps) {
  function submit(e: FormEvent) {
    e.preventDefault();
    if (!confirmDisabled) onConfirm();
  }
  return (
    <Dialog
      open={open}
      onClose={onCancel}
      title={title}
      description={description}
      size="md"
      dismissible={!pending}
      footer={
        <>
          <Button variant="secondary" onClick={onCancel} disabled={pending} data-autofocus={children ? undefined : true}>
            Cancel
          </Button>
          <Button type="submit" form="package-action" variant={destructive ? "danger" : "primary"} pending={pending} disabled={confirmDisabled}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      <form id="package-action" onSubmit={submit} className="space-y-4" noValidate>
        {children}
        <ApiErrorAlert error={error} />
      </form>
    </Dialog>
  );
}
