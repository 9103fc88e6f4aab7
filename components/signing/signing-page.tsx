"use client";

import { useRouter } from "next/navigation";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { DocumentPages } from "@/components/documents/document-pages";
import { ApiError, errorMessage } from "@/components/lib/api-client";
import { Logo } from "@/components/shell/logo";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogFooter } from "@/components/ui/dialog";
import { Textarea } from "@/components/ui/input";
import { CompletedField } from "./completed-field";
import { FieldControl, fieldName } from "./field-control";
import { saveFieldImage, saveFieldValue, signingPaths, useConsent, useDecline, useFinish, type TField, type TOpenView, type TView } from "./query";
import { SignatureDialog, type TSignatureChoice } from "./signature-dialog";
import { SigningEndPage } from "./signing-end-page";
import { useEmbedEvents } from "./embed-events";

type TProps = { token: string; initial: TOpenView };

/** What an empty field shows and the server fills in at finish: the recipient's name and email, the date. */
function fallbackOf(field: TField, view: TOpenView): string | null {
  if (field.type === "name") return view.recipient.name;
  if (field.type === "email") return view.recipient.email;
  if (field.type === "date") return view.today;
  return null;
}

/** Filled as the server will see it at finish (date, name and email are filled in there when empty). */
function isFilled(field: TField, view: TOpenView): boolean {
  if (field.type === "checkbox") return field.value === "true" || (!field.required && field.value !== null);
  return Boolean(field.value || field.hasImage || fallbackOf(field, view));
}

/** "Clara Client", "Clara Client and Li Provider", "A, B and C": who filled in the read-only fields. */
function signersOf(completed: TOpenView["completedFields"]): string {
  const names = [...new Set(completed.map((f) => f.signer))];
  return names.length < 2 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

/** The recipient's signing page: consent, the documents with their fields, guided "Next field", Finish, Decline. */
export function SigningPage({ token, initial }: TProps) {
  const router = useRouter();
  const paths = signingPaths(token);
  const [view] = useState(initial);
  const [fields, setFields] = useState<TField[]>(initial.fields);
  const [images, setImages] = useState<Record<string, string>>(() =>
    Object.fromEntries(initial.fields.filter((f) => f.hasImage).map((f) => [f.id, paths.image(f.id)])),
  );
  const [consented, setConsented] = useState(Boolean(initial.consentAt));
  const [agreed, setAgreed] = useState(false);
  const [signing, setSigning] = useState<TField | null>(null);
  const [lastTyped, setLastTyped] = useState(initial.recipient.name ?? "");
  const [showMissing, setShowMissing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [ended, setEnded] = useState<Extract<TView, { state: "CLOSED" }> | null>(null);
  const [declineOpen, setDeclineOpen] = useState(false);
  const [reason, setReason] = useState("");
  const [reasonError, setReasonError] = useState<string | null>(null);
  const [current, setCurrent] = useState<string | null>(null);
  const pending = useRef(new Set<Promise<unknown>>());
  const consent = useConsent(token);
  const finish = useFinish(token);
  const decline = useDecline(token);
  // On an embedded page: ready (EmbedFrame), field-signed, completed and declined after the server's answer, error.
  const embed = useEmbedEvents();

  // The first open in a browser raises SESSION_OPENED (a mail scanner fetching the link runs no script).
  useEffect(() => {
    void fetch(paths.open, { method: "POST", headers: { accept: "application/json" } }).catch(() => {});
  }, [paths.open]);

  const fillable = useMemo(() => fields.filter((f) => !f.readOnly && f.type !== "date"), [fields]);
  const missing = useMemo(() => fields.filter((f) => f.required && !isFilled(f, view)), [fields, view]);
  const filledCount = fillable.filter((f) => isFilled(f, view)).length;

  /**
   * A refusal that means the link's state changed (held, voided, finished elsewhere; 403: the identity check
   * must be passed again, e.g. the sender changed the method): show the server's page.
   */
  const onFailure = useCallback(
    (err: unknown) => {
      if (err instanceof ApiError && (err.status === 404 || err.status === 403 || (err.status === 409 && !/Agree to sign|filled in/.test(err.message)))) {
        router.refresh();
      }
      setError(errorMessage(err));
      embed("error", { message: errorMessage(err) ?? "Something went wrong" });
    },
    [router, embed],
  );

  function track<T>(promise: Promise<T>): Promise<T> {
    pending.current.add(promise);
    void promise.finally(() => pending.current.delete(promise)).catch(() => {});
    return promise;
  }

  function replaceField(updated: TField) {
    setFields((all) => all.map((f) => (f.id === updated.id ? updated : f)));
  }

  function saveValue(field: TField, value: string | null) {
    setError(null);
    replaceField({ ...field, value });
    track(saveFieldValue(token, field.id, value))
      .then((updated) => {
        replaceField(updated);
        embed("field-signed", { fieldId: field.id });
      })
      .catch((err: unknown) => {
        replaceField(field);
        onFailure(err);
      });
  }

  async function saveSignature(field: TField, choice: TSignatureChoice) {
    if (choice.kind === "typed") {
      const updated = await track(saveFieldValue(token, field.id, choice.text));
      setLastTyped(choice.text);
      replaceField(updated);
      setImages(({ [field.id]: _dropped, ...rest }) => rest);
      embed("field-signed", { fieldId: field.id });
      return;
    }
    const updated = await track(saveFieldImage(token, field.id, choice.png, choice.kind));
    replaceField(updated);
    embed("field-signed", { fieldId: field.id });
    setImages((all) => ({ ...all, [field.id]: URL.createObjectURL(choice.png) }));
  }

  function focusField(id: string) {
    const el = document.getElementById(`field-${id}`);
    el?.scrollIntoView({ block: "center", behavior: "smooth" });
    el?.focus({ preventScroll: true });
    setCurrent(id);
  }

  /** The next empty field after the current one (required ones first), wrapping; else simply the next field. */
  function nextField() {
    if (fillable.length === 0) return;
    const start = Math.max(
      -1,
      fillable.findIndex((f) => f.id === current),
    );
    const ordered = [...fillable.slice(start + 1), ...fillable.slice(0, start + 1)];
    const target = ordered.find((f) => f.required && !isFilled(f, view)) ?? ordered.find((f) => !isFilled(f, view)) ?? ordered[0];
    if (target) focusField(target.id);
  }

  async function onFinish() {
    setError(null);
    await Promise.allSettled([...pending.current]);
    if (missing.length > 0) {
      setShowMissing(true);
      focusField(missing[0]!.id);
      return;
    }
    finish.mutate(undefined, {
      onSuccess: (result) => {
        // The answer comes after the commit: only now may the embedding page hear `completed`.
        if (result.state === "CLOSED" && (result.reason === "FINISHED" || result.reason === "COMPLETED")) embed("completed");
        if (result.state === "CLOSED") setEnded(result);
        else router.refresh();
      },
      onError: onFailure,
    });
  }

  function onDecline() {
    if (!reason.trim()) return setReasonError("Tell the sender why you decline");
    setReasonError(null);
    decline.mutate(reason.trim(), {
      onSuccess: (result) => {
        setDeclineOpen(false);
        embed("declined");
        if (result.state === "CLOSED") setEnded(result);
      },
      onError: (err) => setReasonError(errorMessage(err)),
    });
  }

  if (ended) return <SigningEndPage reason={ended.reason} packageTitle={ended.packageTitle} signedCopy={ended.signedCopy} token={token} />;

  const progress = `${filledCount} of ${fillable.length}`;

  return (
    <div className="min-h-dvh bg-zinc-100 pb-28">
      <header className="sticky top-0 z-20 border-b border-zinc-200 bg-white/95 backdrop-blur">
        <div className="mx-auto flex max-w-4xl items-center gap-3 px-4 py-3">
          <Logo className="hidden sm:block" />
          <div className="min-w-0 flex-1">
            <h1 className="truncate text-base font-semibold text-zinc-900" dir="auto">
              {view.packageTitle}
            </h1>
            <p className="truncate text-xs text-zinc-600" dir="auto">
              {view.recipient.name ? `${view.recipient.name} · ` : ""}
              {view.recipient.email}
            </p>
          </div>
          <Button variant="danger-ghost" size="sm" onClick={() => setDeclineOpen(true)}>
            Decline
          </Button>
        </div>
      </header>

      <main className="mx-auto max-w-4xl space-y-4 px-3 py-4 sm:px-4">
        {view.message ? (
          <section aria-label="Message from the sender" className="rounded-lg border border-zinc-200 bg-white px-4 py-3 text-sm text-zinc-800">
            <p className="mb-1 text-xs font-medium text-zinc-600">Message from the sender</p>
            <p className="whitespace-pre-line" dir="auto">
              {view.message}
            </p>
          </section>
        ) : null}

        {!consented ? (
          <section aria-labelledby="consent-title" className="rounded-lg border border-zinc-200 bg-white p-5 shadow-sm">
            <h2 id="consent-title" className="text-lg font-semibold text-zinc-900">
              Before you sign
            </h2>
            <p className="mt-2 text-sm leading-6 wrap-anywhere text-zinc-700">
              You are asked to sign <span dir="auto">“{view.packageTitle}”</span> electronically. Your electronic signature has the same effect as one written
              by hand. The time, your address and your browser are recorded with your consent.
            </p>
            <label className="mt-4 flex items-start gap-3 text-sm text-zinc-800">
              <input type="checkbox" className="mt-0.5 size-4 accent-brand-600" checked={agreed} onChange={(e) => setAgreed(e.target.checked)} />
              <span>I agree to sign electronically and to receive the signed documents by email.</span>
            </label>
            {consent.error ? (
              <Alert tone="error" className="mt-3">
                {errorMessage(consent.error)}
              </Alert>
            ) : null}
            <Button
              className="mt-4"
              disabled={!agreed}
              pending={consent.isPending}
              onClick={() => consent.mutate(undefined, { onSuccess: () => setConsented(true), onError: onFailure })}
            >
              Continue
            </Button>
          </section>
        ) : (
          <>
            {error ? <Alert tone="error">{error}</Alert> : null}
            {showMissing && missing.length > 0 ? (
              <Alert tone="error" title={`${missing.length} required ${missing.length === 1 ? "field is" : "fields are"} still empty`}>
                <ul className="list-inside list-disc">
                  {missing.map((f) => (
                    <li key={f.id}>
                      <button type="button" className="underline" onClick={() => focusField(f.id)}>
                        {fieldName(f)} on page {f.page}
                      </button>
                    </li>
                  ))}
                </ul>
              </Alert>
            ) : null}
            {view.completedFields.length > 0 ? (
              <p className="px-1 text-sm text-zinc-700" data-completed-note>
                Fields in a dashed grey frame were filled in by {signersOf(view.completedFields)}, who already signed. They show as they will in the signed
                document and cannot be changed.
              </p>
            ) : null}
            {view.documents.map((doc) => (
              <section key={doc.id} aria-label={doc.name} className="space-y-2">
                <h2 className="px-1 text-sm font-medium text-zinc-700" dir="auto">
                  {doc.name}
                </h2>
                <DocumentPages
                  url={paths.document(doc.id)}
                  label={doc.name}
                  pageSizes={doc.pageSizes}
                  renderOverlay={(page) => [
                    ...view.completedFields
                      .filter((f) => f.documentId === doc.id && f.page === page.pageNumber)
                      .map((f) => <CompletedField key={f.id} field={f} page={page} imageUrl={f.hasImage ? paths.image(f.id) : null} />),
                    ...fields
                      .filter((f) => f.documentId === doc.id && f.page === page.pageNumber)
                      .map((f) => (
                        <FieldControl
                          key={f.id}
                          field={f}
                          page={page}
                          fallback={fallbackOf(f, view)}
                          imageUrl={images[f.id] ?? null}
                          invalid={showMissing && f.required && !isFilled(f, view)}
                          onOpenSignature={() => setSigning(f)}
                          onSave={(value) => saveValue(f, value)}
                          onFocus={() => setCurrent(f.id)}
                        />
                      )),
                  ]}
                />
              </section>
            ))}
          </>
        )}
      </main>

      {consented ? (
        <nav aria-label="Signing" className="fixed inset-x-0 bottom-0 z-20 border-t border-zinc-200 bg-white/95 backdrop-blur">
          <div className="mx-auto flex max-w-4xl items-center gap-2 px-3 py-3 sm:px-4">
            <p className="min-w-0 flex-1 text-sm text-zinc-700" aria-live="polite">
              <span className="font-semibold text-zinc-900" data-progress>
                {progress}
              </span>{" "}
              fields filled
            </p>
            <Button variant="secondary" onClick={nextField} disabled={fillable.length === 0}>
              Next field
            </Button>
            <Button onClick={() => void onFinish()} pending={finish.isPending}>
              Finish
            </Button>
          </div>
        </nav>
      ) : null}

      {signing ? (
        <SignatureDialog
          open
          initials={signing.type === "initials"}
          defaultText={signing.type === "initials" ? initialsOf(lastTyped) : lastTyped}
          onClose={() => setSigning(null)}
          onSave={(choice) => saveSignature(signing, choice)}
        />
      ) : null}

      <Dialog
        open={declineOpen}
        onClose={() => setDeclineOpen(false)}
        title="Decline to sign"
        description="The sender is told, with your reason, and nobody can sign this document any more."
      >
        <form
          onSubmit={(e) => {
            e.preventDefault();
            onDecline();
          }}
        >
          <label htmlFor="decline-reason" className="block text-sm font-medium text-zinc-800">
            Reason
          </label>
          <Textarea
            id="decline-reason"
            className="mt-1.5"
            dir="auto"
            maxLength={1000}
            value={reason}
            aria-invalid={Boolean(reasonError)}
            aria-describedby={reasonError ? "decline-reason-error" : undefined}
            data-autofocus
            onChange={(e) => setReason(e.target.value)}
          />
          {reasonError ? (
            <p id="decline-reason-error" className="mt-1 text-sm text-red-700">
              {reasonError}
            </p>
          ) : null}
          <DialogFooter inset>
            <Button variant="secondary" onClick={() => setDeclineOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" variant="danger" pending={decline.isPending}>
              Decline to sign
            </Button>
          </DialogFooter>
        </form>
      </Dialog>
    </div>
  );
}

function initialsOf(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .map((part) => [...part][0] ?? "")
    .join("")
    .toUpperCase()
    .slice(0, 4);
}
