"use client";

import { useRouter } from "next/navigation";
import { useRef, useState, type FormEvent } from "react";
import { ApiError, errorMessage } from "@/components/lib/api-client";
import { Logo } from "@/components/shell/logo";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { useSendEmailCode, useSubmitCode, type TAuthenticationState } from "./authentication-query";

type TProps = { token: string; packageTitle: string; authentication: TAuthenticationState };

/**
 * The check a recipient passes before the signing page shows anything but the package's title: the access code
 * the sender gave them, or a code mailed to their address. Passing sets a cookie for this browser session and
 * the server page is rendered again (the document appears); a wrong code says so and keeps the input; too many
 * wrong codes lock the link until the sender unlocks it.
 */
export function AuthenticationCheck({ token, packageTitle, authentication }: TProps) {
  const router = useRouter();
  const emailCode = authentication.method === "EMAIL_CODE";
  const label = emailCode ? "Email code" : "Access code";
  const [code, setCode] = useState("");
  const [locked, setLocked] = useState(authentication.locked);
  const [sent, setSent] = useState<{ sentAt: string; to: string | null } | null>(
    authentication.codeSentAt ? { sentAt: authentication.codeSentAt, to: authentication.codeSentTo } : null,
  );
  const [error, setError] = useState<string | null>(null);
  const [passed, setPassed] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const submit = useSubmitCode(token);
  const send = useSendEmailCode(token);

  function again(message: string) {
    setError(message);
    // Another try: the input keeps what was typed, selected, so typing replaces it.
    requestAnimationFrame(() => input.current?.select());
  }

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    // A mailed code is digits: spaces or dashes pasted with it are dropped. An access code is taken as typed.
    const value = emailCode ? code.replace(/[\s-]/g, "") : code.trim();
    if (!value) return again(`Enter the ${label.toLowerCase()}`);
    setError(null);
    submit.mutate(value, {
      onSuccess: () => {
        setPassed(true);
        router.refresh();
      },
      onError: (err) => {
        const failure = codeFailure(err);
        if (failure.locked) {
          setLocked(true);
          setError(null);
          return;
        }
        if (failure.refresh) router.refresh();
        again(failure.message);
      },
    });
  }

  function onSend() {
    setError(null);
    send.mutate(undefined, {
      onSuccess: (result) => {
        setSent({ sentAt: result.sentAt, to: result.to });
        setCode("");
        requestAnimationFrame(() => input.current?.focus());
      },
      onError: (err) => {
        const failure = codeFailure(err);
        if (failure.locked) return setLocked(true);
        setError(failure.message);
      },
    });
  }

  const showInput = !locked && (!emailCode || sent !== null);

  return (
    <main className="flex min-h-dvh flex-col items-center bg-zinc-50 px-4 py-10 sm:justify-center sm:py-12" data-signing-check={authentication.method}>
      <Logo className="mb-8" />
      <section aria-labelledby="check-title" className="w-full max-w-md rounded-xl border border-zinc-200 bg-white p-6 shadow-sm sm:p-8">
        <p className="text-sm font-medium break-words text-zinc-600" dir="auto">
          {packageTitle}
        </p>
        <h1 id="check-title" className="mt-1 text-xl font-semibold text-zinc-900">
          {locked ? "This link is locked" : "Confirm it’s you"}
        </h1>

        {locked ? (
          <div className="mt-4 space-y-3 text-sm leading-6 text-zinc-700" data-testid="check-locked">
            <Alert tone="warning">Too many wrong codes were entered, so signing is locked for your protection.</Alert>
            <p>Ask the sender to unlock it; this same link will work again once they have. There is nothing else you need to do.</p>
          </div>
        ) : (
          <>
            <p className="mt-3 text-sm leading-6 text-zinc-700">
              {emailCode ? (
                <>
                  The sender asks you to confirm your email address before you can see and sign this document.
                  {sent ? null : (
                    <>
                      {" "}
                      We’ll email a 6-digit code to{" "}
                      {authentication.codeSentTo ? <span className="font-medium break-words text-zinc-900">{authentication.codeSentTo}</span> : "your address"}.
                    </>
                  )}
                </>
              ) : (
                "The sender protected this document with an access code. They gave it to you separately: it is not in the email that brought you here."
              )}
            </p>
            {emailCode && sent ? (
              <p className="mt-3 text-sm text-zinc-700" role="status" data-testid="code-sent">
                {sent.to ? (
                  <>
                    We sent a code to <span className="font-medium break-words text-zinc-900">{sent.to}</span>.
                  </>
                ) : (
                  "We sent a code to your email address."
                )}{" "}
                A code works for 10 minutes.
              </p>
            ) : null}
            {showInput ? (
              <form onSubmit={onSubmit} noValidate className="mt-5 space-y-4">
                <div className="space-y-1.5">
                  <label htmlFor="check-code" className="block text-sm font-medium text-zinc-800">
                    {label}
                  </label>
                  <Input
                    ref={input}
                    id="check-code"
                    name={emailCode ? "one-time-code" : "access-code"}
                    value={code}
                    onChange={(e) => setCode(e.target.value)}
                    autoComplete={emailCode ? "one-time-code" : "off"}
                    inputMode={emailCode ? "numeric" : "text"}
                    autoCapitalize="none"
                    autoCorrect="off"
                    spellCheck={false}
                    maxLength={emailCode ? 20 : 50}
                    autoFocus
                    aria-invalid={Boolean(error)}
                    aria-describedby={error ? "check-error" : undefined}
                    className={emailCode ? "h-11 font-mono text-lg tracking-widest" : "h-11"}
                  />
                </div>
                {!error && authentication.attemptsLeft < 5 ? (
                  <p className="text-sm text-zinc-600">
                    {authentication.attemptsLeft === 1 ? "1 try left" : `${authentication.attemptsLeft} tries left`} before the link locks.
                  </p>
                ) : null}
                {error ? (
                  <div id="check-error">
                    <Alert tone="error">{error}</Alert>
                  </div>
                ) : null}
                <Button type="submit" className="h-11 w-full" pending={submit.isPending || passed}>
                  Continue
                </Button>
              </form>
            ) : error ? (
              <Alert tone="error" className="mt-4">
                {error}
              </Alert>
            ) : null}
            {emailCode ? (
              <Button
                variant={sent ? "ghost" : "primary"}
                className={sent ? "mt-3 h-11 w-full" : "mt-5 h-11 w-full"}
                pending={send.isPending}
                disabled={passed}
                onClick={onSend}
              >
                {sent ? "Send a new code" : "Send me a code"}
              </Button>
            ) : null}
          </>
        )}
      </section>
    </main>
  );
}

/**
 * What a refused code or send means for the screen (docs/decisions/signer-authentication.md): 409 "locked" locks
 * it; a wrong or expired code is a 422 whose `code` message counts the tries left; 404 or another 409 means
 * the link itself changed (revoked, voided, on hold, the method corrected) and the server page says what now.
 */
function codeFailure(err: unknown): { locked: boolean; refresh: boolean; message: string } {
  if (!(err instanceof ApiError)) return { locked: false, refresh: false, message: errorMessage(err) ?? "Something went wrong. Try again." };
  if (err.status === 409 && /locked/i.test(err.message)) return { locked: true, refresh: false, message: err.message };
  if (err.status === 422) return { locked: false, refresh: false, message: err.field("code")?.[0] ?? err.message };
  return { locked: false, refresh: err.status === 404 || err.status === 409 || err.status === 403, message: err.message };
}
