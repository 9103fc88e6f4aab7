"use client";

import Link from "next/link";
import { useState } from "react";
import { errorMessage } from "@/components/lib/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { TemplateStatusBadge } from "./badges";
import type { TTemplate } from "./query";
import type { TAutosave } from "./use-autosave";
import type { useEditLock } from "./use-edit-lock";

/* The template editor's header (name, status, save state, activate/archive) and the edit lock's Break lock. */

function SaveState({ autosave }: { autosave: TAutosave }) {
  const text =
    autosave.pending > 0 ? "Saving…" : autosave.failed.length > 0 ? "Not saved" : autosave.savedOnce ? "Saved" : "All changes are saved as you make them";
  return (
    <p
      role="status"
      aria-live="polite"
      data-testid="save-state"
      className={autosave.failed.length > 0 && autosave.pending === 0 ? "text-sm font-medium text-red-700" : "text-sm text-zinc-500"}
    >
      {text}
    </p>
  );
}

export function EditorHeader({
  template,
  readOnly,
  autosave,
  onStatus,
}: {
  template: TTemplate;
  readOnly: boolean;
  autosave: TAutosave;
  onStatus: (status: TTemplate["status"], what: string) => Promise<boolean>;
}) {
  const blockers = template.activationBlockers;
  const busy = autosave.pending > 0;
  return (
    <header className="space-y-4">
      <Link href="/templates" className="text-sm font-medium text-brand-700 hover:underline">
        ← Templates
      </Link>
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0 space-y-1">
          <div className="flex flex-wrap items-center gap-3">
            <h1 className="min-w-0 text-2xl font-semibold tracking-tight wrap-anywhere text-zinc-900">{template.name}</h1>
            <TemplateStatusBadge status={template.status} />
          </div>
          {template.description ? <p className="max-w-2xl text-sm wrap-anywhere text-zinc-600">{template.description}</p> : null}
          <SaveState autosave={autosave} />
        </div>
        <div className="flex flex-wrap gap-2">
          {template.status !== "ACTIVE" ? (
            <Button disabled={readOnly || blockers.length > 0 || busy} onClick={() => void onStatus("ACTIVE", "Activation")}>
              Activate
            </Button>
          ) : (
            <Button variant="secondary" disabled={readOnly || busy} onClick={() => void onStatus("ARCHIVED", "Archiving")}>
              Archive
            </Button>
          )}
          {template.status !== "DRAFT" ? (
            <Button variant="secondary" disabled={readOnly || busy} onClick={() => void onStatus("DRAFT", "Return to draft")}>
              Back to draft
            </Button>
          ) : null}
        </div>
      </div>
      {template.status !== "ACTIVE" && blockers.length > 0 ? (
        <Alert tone="warning" title="Before this template can be activated">
          <ul className="list-disc space-y-0.5 pl-5" data-testid="activation-blockers">
            {blockers.map((b) => (
              <li key={b}>{b}</li>
            ))}
          </ul>
        </Alert>
      ) : null}
      {template.status === "ACTIVE" ? (
        <Alert tone="info" className="max-w-3xl">
          <span data-testid="active-template-note">
            Packages are made from this template. Changes that would stop that — adding a role or a document, removing a role’s only signature field — need{" "}
            <strong>Back to draft</strong> first.
          </span>
        </Alert>
      ) : null}
    </header>
  );
}

export function BreakLock({ holder, lock }: { holder: string; lock: ReturnType<typeof useEditLock> }) {
  const [asking, setAsking] = useState(false);
  return (
    <>
      <Button variant="danger" size="sm" onClick={() => setAsking(true)}>
        Break lock
      </Button>
      <ConfirmDialog
        open={asking}
        title={`Break ${holder}’s lock?`}
        description={`${holder} can no longer save changes in their open editor; what they have not saved yet is lost. You take the lock.`}
        confirmLabel="Break lock"
        pending={lock.breaking}
        error={errorMessage(lock.breakError)}
        onCancel={() => setAsking(false)}
        onConfirm={() => {
          lock.breakLock();
          setAsking(false);
        }}
      />
    </>
  );
}
