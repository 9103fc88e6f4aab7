"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { actingNeedsSendPermission } from "@/common/send-permission";
import { browserTimeZone, formatDateTime } from "@/components/lib/format";
import { Button } from "@/components/ui/button";
import { CopyField } from "@/components/ui/copy-field";
import { Dialog } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input, Select, Textarea } from "@/components/ui/input";
import { ActionDialog } from "./action-dialog";
import {
  useDeletePackage,
  useHoldPackage,
  useMembers,
  useRemindPackage,
  useReschedulePackage,
  useResumePackage,
  useSendPackage,
  useSigningUrl,
  useTransferPackage,
  useVoidPackage,
  type TPackage,
  type TSigningUrl,
} from "./query";

export type TAsk = "send" | "schedule" | "hold" | "resume" | "void" | "remind" | "delete" | "transfer" | "link";
type TSession = TPackage["recipientSessions"][number];

const OPEN = new Set<TSession["status"]>(["SENT", "OPENED"]);

export function recipientLabel(s: TSession): string {
  return s.name ? `${s.name} <${s.email ?? ""}>` : (s.email ?? s.roleName ?? `Recipient ${s.order + 1}`);
}

// Sending and every action on a scheduled or sent package need canSendPackages, as on the server.
const NOT_SENDER = "Your role may not send packages, nor act on a scheduled or sent one.";

/** The reason an action does not fit the package now, or null when it does. */
export function unavailable(ask: TAsk, pkg: TPackage, canSend: boolean): string | null {
  const s = pkg.status;
  const open = pkg.recipientSessions.some((r) => OPEN.has(r.status));
  switch (ask) {
    case "send":
    case "schedule":
      if (!canSend) return "Your role may not send packages.";
      return s === "DRAFT" || s === "SCHEDULED" ? null : "Only a draft or scheduled package can be sent or scheduled.";
    case "hold":
      if (!canSend) return NOT_SENDER;
      return s === "IN_PROGRESS" ? null : "Only a package in progress can be put on hold.";
    case "resume":
      if (!canSend) return NOT_SENDER;
      return s === "ON_HOLD" ? null : "Only a package on hold can be resumed.";
    case "void":
      if (!canSend) return NOT_SENDER;
      if (s === "DRAFT" || s === "SCHEDULED") return "Only a sent package can be voided; delete a draft or scheduled package instead.";
      return s === "IN_PROGRESS" || s === "ON_HOLD" ? null : "The package has already ended.";
    case "remind":
      if (!canSend) return NOT_SENDER;
      if (s !== "IN_PROGRESS") return "Only a package in progress can be reminded.";
      return open ? null : "No recipient is waiting to sign.";
    case "link":
      if (!canSend) return NOT_SENDER;
      if (s !== "IN_PROGRESS") return "A signing link exists only while the package is in progress.";
      return open ? null : "No recipient's turn to sign.";
    case "delete":
    case "transfer":
      // The server's rule (common/send-permission.ts): a draft's preparer may transfer or delete it.
      return canSend || !actingNeedsSendPermission(s) ? null : NOT_SENDER;
  }
}

const LABELS: Record<TAsk, string> = {
  send: "Send now",
  schedule: "Schedule",
  hold: "Put on hold",
  resume: "Resume",
  void: "Void",
  remind: "Remind",
  delete: "Delete",
  transfer: "Transfer",
  link: "Signing link",
};

/** The datetime-local value (the browser's zone) as an ISO UTC instant; null when empty or not a date. */
function localToIso(value: string): string | null {
  if (!value) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

function toLocalInput(iso: string | null): string {
  if (!iso) return "";
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/**
 * The package's actions: each behind a dialog that says what happens, each disabled with its reason when it
 * does not fit the package's state. `ask`/`setAsk` are lifted so the recipients list can open remind and
 * signing-link for one recipient.
 */
export function PackageActions({
  pkg,
  canSend,
  ask,
  sessionId,
  onAsk,
}: {
  pkg: TPackage;
  canSend: boolean;
  ask: TAsk | null;
  sessionId: string | null;
  onAsk: (ask: TAsk | null, sessionId?: string | null) => void;
}) {
  const router = useRouter();
  const send = useSendPackage(pkg.id);
  const reschedule = useReschedulePackage(pkg.id);
  const hold = useHoldPackage(pkg.id);
  const resume = useResumePackage(pkg.id);
  const voidIt = useVoidPackage(pkg.id);
  const remind = useRemindPackage(pkg.id);
  const remove = useDeletePackage(pkg.id);
  const transfer = useTransferPackage(pkg.id);
  const link = useSigningUrl(pkg.id);
  const members = useMembers();
  const [when, setWhen] = useState(toLocalInput(pkg.sendAt));
  const [reason, setReason] = useState("");
  const [newOwner, setNewOwner] = useState("");
  const [issued, setIssued] = useState<(TSigningUrl & { who: string }) | null>(null);
  const [done, setDone] = useState<string | null>(null);
  // A past time would send at once (the API's rule): the dialog refuses it instead, checked on submit.
  const [scheduleInPast, setScheduleInPast] = useState(false);

  const mutations = [send, reschedule, hold, resume, voidIt, remind, remove, transfer, link];
  function close() {
    for (const m of mutations) m.reset();
    onAsk(null);
  }
  function open(next: TAsk) {
    for (const m of mutations) m.reset();
    setDone(null);
    if (next === "schedule") setWhen(toLocalInput(pkg.sendAt));
    if (next === "void") setReason("");
    if (next === "transfer") setNewOwner("");
    onAsk(next, null);
  }
  const finished = (message: string) => () => {
    onAsk(null);
    setDone(message);
  };

  const openSessions = pkg.recipientSessions.filter((s) => OPEN.has(s.status));
  const linkSession = pkg.recipientSessions.find((s) => s.id === sessionId) ?? openSessions[0] ?? null;
  const scheduleIso = localToIso(when);
  const others = (members.data ?? []).filter((m) => m.userId !== pkg.ownerUserId && m.status === "ACTIVE");
  const order: TAsk[] = ["send", "schedule", "hold", "resume", "remind", "link", "transfer", "void", "delete"];
  const reasons = order.map((a) => [a, unavailable(a, pkg, canSend)] as const).filter(([, r]) => r !== null);

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap gap-2" role="toolbar" aria-label="Package actions">
        {order.map((a) => {
          const why = unavailable(a, pkg, canSend);
          // Only an action that can run looks like the page's main action.
          const variant = a === "void" || a === "delete" ? "danger-ghost" : a === "send" && why === null ? "primary" : "secondary";
          return (
            <Button key={a} size="sm" variant={variant} disabled={why !== null} title={why ?? undefined} onClick={() => open(a)}>
              {a === "schedule" && pkg.status === "SCHEDULED" ? "Reschedule" : a === "remind" ? "Remind all" : LABELS[a]}
            </Button>
          );
        })}
      </div>
      {reasons.length > 0 ? (
        <details className="text-xs text-zinc-600">
          <summary className="cursor-pointer select-none text-zinc-500 hover:text-zinc-700">Why are some actions unavailable?</summary>
          <ul className="mt-2 space-y-1 pl-1" data-testid="unavailable-reasons">
            {reasons.map(([a, r]) => (
              <li key={a}>
                <span className="font-medium text-zinc-800">{a === "remind" ? "Remind" : LABELS[a]}:</span> {r}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      {done ? (
        <p role="status" className="text-sm text-emerald-700" data-testid="action-done">
          {done}
        </p>
      ) : null}

      <ActionDialog
        open={ask === "send"}
        title="Send this package now?"
        description={`Every recipient${pkg.sequential ? " is invited in signing order, starting with the first" : " is invited at once"}. Sending uses one package of the plan's allowance.`}
        confirmLabel="Send now"
        destructive={false}
        pending={send.isPending}
        error={send.error}
        onCancel={close}
        onConfirm={() => send.mutate({}, { onSuccess: finished("Sent. The first invitations are on their way.") })}
      />
      <ActionDialog
        open={ask === "schedule"}
        title={pkg.status === "SCHEDULED" ? "Move the scheduled send" : "Schedule this package"}
        description="The package is sent automatically at this time. You can send it earlier, move the time, or delete it until then."
        confirmLabel={pkg.status === "SCHEDULED" ? "Move send time" : "Schedule"}
        destructive={false}
        pending={send.isPending || reschedule.isPending}
        error={send.error ?? reschedule.error}
        confirmDisabled={scheduleIso === null}
        onCancel={close}
        onConfirm={() => {
          if (!scheduleIso) return;
          const past = new Date(scheduleIso).getTime() <= Date.now();
          setScheduleInPast(past);
          if (past) return;
          const ok = { onSuccess: finished(`Scheduled for ${formatDateTime(scheduleIso)}.`) };
          if (pkg.status === "SCHEDULED") reschedule.mutate(scheduleIso, ok);
          else send.mutate({ sendAt: scheduleIso }, ok);
        }}
      >
        <Field label="Send at" hint={`Your time zone: ${browserTimeZone()}.`} error={scheduleInPast ? "Choose a time in the future" : undefined}>
          {(p) => (
            <Input
              {...p}
              type="datetime-local"
              value={when}
              onChange={(e) => {
                setWhen(e.target.value);
                setScheduleInPast(false);
              }}
              data-autofocus
            />
          )}
        </Field>
      </ActionDialog>
      <ActionDialog
        open={ask === "hold"}
        title="Put this package on hold?"
        description="Recipients cannot open or sign it and no reminders go out until you resume it. Its expiry moves later by the time it spends on hold."
        confirmLabel="Put on hold"
        destructive={false}
        pending={hold.isPending}
        error={hold.error}
        onCancel={close}
        onConfirm={() => hold.mutate(undefined, { onSuccess: finished("On hold. Recipients cannot sign until you resume it.") })}
      />
      <ActionDialog
        open={ask === "resume"}
        title="Resume this package?"
        description="Recipients whose turn it is can sign again, and reminders start again."
        confirmLabel="Resume"
        destructive={false}
        pending={resume.isPending}
        error={resume.error}
        onCancel={close}
        onConfirm={() => resume.mutate(undefined, { onSuccess: finished("Resumed. Recipients can sign again.") })}
      />
      <ActionDialog
        open={ask === "void"}
        title="Void this package?"
        description="Every open signing link stops working and nobody can sign it any more. Signatures already given stay in the audit trail. This cannot be undone."
        confirmLabel="Void package"
        destructive
        pending={voidIt.isPending}
        error={voidIt.error}
        onCancel={close}
        onConfirm={() => voidIt.mutate(reason, { onSuccess: finished("Voided.") })}
      >
        <Field label="Reason" optional hint="Kept with the package and shown in its timeline.">
          {(p) => <Textarea {...p} value={reason} maxLength={1000} onChange={(e) => setReason(e.target.value)} data-autofocus />}
        </Field>
      </ActionDialog>
      <ActionDialog
        open={ask === "remind"}
        title="Send a reminder now?"
        description="The recipient gets the invitation again, with a new link; the previous link stops working."
        confirmLabel="Send reminder"
        destructive={false}
        pending={remind.isPending}
        error={remind.error}
        onCancel={close}
        onConfirm={() =>
          remind.mutate(sessionId, {
            onSuccess: (r) => {
              onAsk(null);
              setDone(`Reminded ${r.reminded.length} ${r.reminded.length === 1 ? "recipient" : "recipients"}.`);
            },
          })
        }
      >
        <Field label="Who">
          {(p) => (
            <Select {...p} value={sessionId ?? ""} onChange={(e) => onAsk("remind", e.target.value || null)}>
              <option value="">Every recipient waiting to sign ({openSessions.length})</option>
              {openSessions.map((s) => (
                <option key={s.id} value={s.id}>
                  {recipientLabel(s)}
                </option>
              ))}
            </Select>
          )}
        </Field>
      </ActionDialog>
      <ActionDialog
        open={ask === "link"}
        title="Create a signing link?"
        description={
          linkSession
            ? `A link for ${recipientLabel(linkSession)} to sign now, valid 60 minutes. It replaces this recipient's earlier link (the one in their invitation stops working). Share it only with them.`
            : "No recipient's turn to sign."
        }
        confirmLabel="Create link"
        destructive={false}
        pending={link.isPending}
        error={link.error}
        confirmDisabled={!linkSession}
        onCancel={close}
        onConfirm={() => {
          if (!linkSession) return;
          link.mutate(linkSession.id, {
            onSuccess: (r) => {
              onAsk(null);
              setIssued({ ...r, who: recipientLabel(linkSession) });
            },
          });
        }}
      />
      <ActionDialog
        open={ask === "transfer"}
        title="Transfer this package"
        description="The new owner sees and manages it; you keep access only if your role may see every package."
        confirmLabel="Transfer"
        destructive={false}
        pending={transfer.isPending}
        error={transfer.error}
        confirmDisabled={!newOwner}
        onCancel={close}
        onConfirm={() => transfer.mutate({ userId: newOwner }, { onSuccess: finished("Transferred.") })}
      >
        <Field label="New owner" hint={members.isPending ? "Loading members…" : others.length === 0 ? "There is no other member to give it to." : undefined}>
          {(p) => (
            <Select {...p} value={newOwner} onChange={(e) => setNewOwner(e.target.value)} data-autofocus>
              <option value="">Choose a member</option>
              {others.map((m) => (
                <option key={m.userId} value={m.userId}>
                  {m.name} ({m.email})
                </option>
              ))}
            </Select>
          )}
        </Field>
      </ActionDialog>
      <ActionDialog
        open={ask === "delete"}
        title="Delete this package?"
        description={
          pkg.status === "IN_PROGRESS" || pkg.status === "ON_HOLD" || pkg.status === "SCHEDULED"
            ? "It disappears from every list, its open signing links stop working and the scheduled send, if any, is cancelled. This cannot be undone."
            : "It disappears from every list. This cannot be undone."
        }
        confirmLabel="Delete package"
        destructive
        pending={remove.isPending}
        error={remove.error}
        onCancel={close}
        onConfirm={() => remove.mutate(undefined, { onSuccess: () => router.push("/packages") })}
      />
      <Dialog
        open={issued !== null}
        onClose={() => setIssued(null)}
        dismissible={false}
        title="Signing link"
        description={issued ? `For ${issued.who}. It is shown only this once: copy it now.` : undefined}
        footer={<Button onClick={() => setIssued(null)}>Done</Button>}
      >
        {issued ? (
          <div className="space-y-2">
            <CopyField label="Link" value={issued.url} testId="signing-url" autoFocus />
            <p className="text-sm text-zinc-600">Valid until {formatDateTime(issued.expiresAt)}.</p>
          </div>
        ) : null}
      </Dialog>
    </div>
  );
}
