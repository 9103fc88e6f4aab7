"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, type FormEvent, type ReactNode } from "react";
import { ApiError, errorMessage, fieldErrors } from "@/components/lib/api-client";
import { browserTimeZone } from "@/components/lib/format";
import { Alert } from "@/components/ui/alert";
import { Button, buttonClasses } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Field } from "@/components/ui/field";
import { Checkbox, Input, Select, Textarea } from "@/components/ui/input";
import type { TTemplate } from "@/components/templates/query";
import { ApiErrorAlert } from "./action-dialog";
import { authenticationBody, RecipientAuthenticationInput, type TRecipientAuthenticationInput } from "./recipient-authentication-input";
import { useActiveTemplates, useCreateFromTemplate, useCustomFields, useTemplateForPackage, type TCreateFromTemplateInput } from "./query";

type TWhen = "now" | "later" | "draft";
type TRecipientInput = { email: string; name: string };

/** The reminder inputs, in order, with the bounds the API takes (its 422 names the same keys). */
const REMINDER_INPUTS = [
  { key: "firstAfterDays", label: "First after (days)", min: 1, max: 365 },
  { key: "repeatEveryDays", label: "Then every (days)", min: 1, max: 365 },
  { key: "max", label: "At most (reminders)", min: 0, max: 20 },
] as const;

/** A date input's day, ending at the last minute of that day in the browser's zone, as an ISO UTC instant. */
function endOfDayIso(day: string): string | undefined {
  if (!day) return undefined;
  const d = new Date(`${day}T23:59:59`);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

function localToIso(value: string): string | undefined {
  if (!value) return undefined;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

function Group({ title, description, children }: { title: string; description?: ReactNode; children: ReactNode }) {
  return (
    <Card>
      <CardHeader title={title} description={description} />
      <CardBody className="space-y-4">{children}</CardBody>
    </Card>
  );
}

/** Step one: an ACTIVE template. Step two: the package's form, built from that template. */
export function NewPackageForm({ canSend }: { canSend: boolean }) {
  const templates = useActiveTemplates();
  const [templateId, setTemplateId] = useState<string | null>(null);
  const template = useTemplateForPackage(templateId);

  if (templates.isPending) return <p className="py-10 text-center text-sm text-zinc-500">Loading templates…</p>;
  if (templates.isError) return <Alert tone="error">{errorMessage(templates.error)}</Alert>;
  if (templates.data.templates.length === 0) {
    return (
      <Card>
        <EmptyState
          title="No active template"
          description="Packages are made from an active template: create one, upload its documents, add a role for each signer, place their fields and activate it."
          action={
            <Link href="/templates" className={buttonClasses("primary", "md")}>
              Go to templates
            </Link>
          }
        />
      </Card>
    );
  }

  return (
    <div className="space-y-6">
      <Group title="Template" description="The package copies its documents, roles, fields and questions; later template changes do not affect it.">
        <Field label="Template">
          {(p) => (
            <Select {...p} value={templateId ?? ""} onChange={(e) => setTemplateId(e.target.value || null)}>
              <option value="">Choose an active template</option>
              {templates.data.templates.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name} ({t.roleCount} {t.roleCount === 1 ? "role" : "roles"})
                </option>
              ))}
            </Select>
          )}
        </Field>
      </Group>
      {templateId === null ? null : template.isPending ? (
        <p className="py-6 text-center text-sm text-zinc-500">Loading the template…</p>
      ) : template.isError ? (
        <Alert tone="error">{errorMessage(template.error)}</Alert>
      ) : (
        <PackageFields key={template.data.id} template={template.data} canSend={canSend} />
      )}
    </div>
  );
}

function PackageFields({ template, canSend }: { template: TTemplate; canSend: boolean }) {
  const router = useRouter();
  const create = useCreateFromTemplate();
  const customFields = useCustomFields();
  const [title, setTitle] = useState(template.name);
  const [recipients, setRecipients] = useState<TRecipientInput[]>(template.roles.map(() => ({ email: "", name: "" })));
  // Each recipient's identity check starts at the method the template's role presets.
  const [authentications, setAuthentications] = useState<TRecipientAuthenticationInput[]>(
    template.roles.map((role) => ({ method: role.authentication.method, accessCode: "" })),
  );
  const [merge, setMerge] = useState<Record<string, string>>(() => Object.fromEntries(template.mergeFields.map((m) => [m.key, m.defaultValue ?? ""])));
  const [answers, setAnswers] = useState<Record<string, string>>({});
  const [metadata, setMetadata] = useState<Record<string, string>>({});
  const [sequential, setSequential] = useState(true);
  const [message, setMessage] = useState("");
  const [expiry, setExpiry] = useState("");
  const [remindOn, setRemindOn] = useState(false);
  const [reminders, setReminders] = useState({ firstAfterDays: "3", repeatEveryDays: "3", max: "3" });
  const [when, setWhen] = useState<TWhen>(canSend ? "now" : "draft");
  const [sendAt, setSendAt] = useState("");
  const errors = fieldErrors(create.error);
  const fields = (customFields.data?.customFields ?? []).filter((f) => f.active && (f.templateId === null || f.templateId === template.id));
  // Details the form shows next to a field are not repeated in the summary at the top.
  const shown = new Set<string>(["title", "expiresAt", "sendAt", "message", "sequential"]);
  const mark = (path: string) => {
    shown.add(path);
    return errors[path];
  };

  function submit(e: FormEvent) {
    e.preventDefault();
    const input: TCreateFromTemplateInput = {
      templateId: template.id,
      title,
      recipients: recipients.map((r, roleIndex) => ({
        email: r.email,
        name: r.name.trim() || undefined,
        roleIndex,
        authentication: authenticationBody(authentications[roleIndex] ?? { method: "NONE", accessCode: "" }),
      })),
      sequential,
      message: message.trim() || undefined,
      expiresAt: endOfDayIso(expiry),
      mergeFields: Object.keys(merge).length ? merge : undefined,
      answers: Object.fromEntries(Object.entries(answers).filter(([, v]) => v.trim() !== "")),
      metadata: Object.fromEntries(Object.entries(metadata).filter(([, v]) => v.trim() !== "")),
      reminders: remindOn
        ? { firstAfterDays: Number(reminders.firstAfterDays), repeatEveryDays: Number(reminders.repeatEveryDays), max: Number(reminders.max) }
        : undefined,
      status: when === "now" ? "sent" : "draft",
      sendAt: when === "later" ? (localToIso(sendAt) ?? "") : undefined,
    };
    create.mutate(input, { onSuccess: (p) => router.push(`/packages/${encodeURIComponent(p.id)}`) });
  }

  const recipientFields = template.roles.map((role, i) => ({
    role,
    i,
    email: mark(`recipients.${i}.email`),
    name: mark(`recipients.${i}.name`),
    authentication: { method: mark(`recipients.${i}.authentication.method`), accessCode: mark(`recipients.${i}.authentication.accessCode`) },
  }));
  const mergeFields = template.mergeFields.map((m) => ({ m, error: mark(`mergeFields.${m.key}`) }));
  const questionFields = template.questions.map((q) => ({ q, error: mark(`answers.${q.key}`) }));
  const metaFields = fields.map((f) => ({ f, error: mark(`metadata.${f.key}`) }));
  const reminderFields = REMINDER_INPUTS.map((r) => ({ ...r, error: mark(`reminders.${r.key}`) }));
  const rest = create.error instanceof ApiError ? Object.entries(errors).filter(([k]) => !shown.has(k)) : [];
  const general = create.isError && (Object.keys(errors).length === 0 || rest.length > 0);

  return (
    <form onSubmit={submit} noValidate className="space-y-6" aria-label="New package">
      {general ? (
        Object.keys(errors).length === 0 ? (
          <ApiErrorAlert error={create.error} />
        ) : (
          <Alert tone="error" title={errorMessage(create.error) ?? undefined}>
            <ul className="list-disc pl-5">
              {rest.map(([k, v]) => (
                <li key={k}>
                  <span className="font-mono text-xs">{k}</span>: {v.join(" ")}
                </li>
              ))}
            </ul>
          </Alert>
        )
      ) : null}
      <Group title="Package">
        <Field label="Title" error={errors.title}>
          {(p) => <Input {...p} value={title} onChange={(e) => setTitle(e.target.value)} />}
        </Field>
        <Field label="Message to the recipients" optional error={errors.message}>
          {(p) => <Textarea {...p} value={message} onChange={(e) => setMessage(e.target.value)} />}
        </Field>
      </Group>

      <Group title="Recipients" description="One recipient for each role of the template, in signing order.">
        {recipientFields.map(({ role, i, email, name, authentication }) => (
          <fieldset key={role.id} className="grid gap-3 rounded-lg border border-zinc-200 p-4 sm:grid-cols-2" data-testid="recipient-fields">
            <legend className="px-1 text-sm font-medium text-zinc-800">
              {i + 1}. {role.name}
            </legend>
            <Field label={`Email of ${role.name}`} error={email}>
              {(p) => (
                <Input
                  {...p}
                  type="email"
                  autoComplete="off"
                  value={recipients[i]?.email ?? ""}
                  onChange={(e) => setRecipients((rs) => rs.map((r, j) => (j === i ? { ...r, email: e.target.value } : r)))}
                />
              )}
            </Field>
            <Field label={`Name of ${role.name}`} optional error={name}>
              {(p) => (
                <Input
                  {...p}
                  autoComplete="off"
                  value={recipients[i]?.name ?? ""}
                  onChange={(e) => setRecipients((rs) => rs.map((r, j) => (j === i ? { ...r, name: e.target.value } : r)))}
                />
              )}
            </Field>
            <RecipientAuthenticationInput
              roleName={role.name}
              value={authentications[i] ?? { method: "NONE", accessCode: "" }}
              onChange={(value) => setAuthentications((all) => all.map((a, j) => (j === i ? value : a)))}
              errors={authentication}
            />
          </fieldset>
        ))}
        {template.roles.length > 1 ? (
          <label className="flex items-center gap-2 text-sm text-zinc-800">
            <Checkbox checked={sequential} onChange={(e) => setSequential(e.target.checked)} />
            Sign in this order (otherwise everyone is invited at once)
          </label>
        ) : null}
      </Group>

      {mergeFields.length + questionFields.length > 0 ? (
        <Group title="Merge fields and questions" description="Values written into the documents before anyone signs.">
          {mergeFields.map(({ m, error }) => (
            <Field key={m.key} label={m.label} optional={Boolean(m.defaultValue)} hint={`Merge field ${m.key}`} error={error}>
              {(p) => <Input {...p} value={merge[m.key] ?? ""} onChange={(e) => setMerge((v) => ({ ...v, [m.key]: e.target.value }))} />}
            </Field>
          ))}
          {questionFields.map(({ q, error }) => (
            <Field key={q.key} label={q.label} optional={q.required === false} error={error}>
              {(p) => <Input {...p} value={answers[q.key] ?? ""} onChange={(e) => setAnswers((v) => ({ ...v, [q.key]: e.target.value }))} />}
            </Field>
          ))}
        </Group>
      ) : null}

      {metaFields.length > 0 ? (
        <Group title="Metadata" description="Your workspace's custom fields, kept with the package and sent in its webhooks.">
          {metaFields.map(({ f, error }) => (
            <Field key={f.key} label={f.label} optional hint={f.key} error={error}>
              {(p) => <Input {...p} value={metadata[f.key] ?? ""} onChange={(e) => setMetadata((v) => ({ ...v, [f.key]: e.target.value }))} />}
            </Field>
          ))}
        </Group>
      ) : null}

      <Group title="Expiry and reminders">
        <Field label="Expires at the end of" optional hint={`Your time zone: ${browserTimeZone()}.`} error={errors.expiresAt}>
          {(p) => <Input {...p} type="date" value={expiry} onChange={(e) => setExpiry(e.target.value)} className="sm:max-w-xs" />}
        </Field>
        <label className="flex items-center gap-2 text-sm text-zinc-800">
          <Checkbox checked={remindOn} onChange={(e) => setRemindOn(e.target.checked)} />
          Remind recipients automatically
        </label>
        {remindOn ? (
          <div className="grid gap-3 sm:grid-cols-3">
            {reminderFields.map(({ key, label, min, max, error }) => (
              <Field key={key} label={label} error={error}>
                {(p) => (
                  <Input
                    {...p}
                    type="number"
                    min={min}
                    max={max}
                    value={reminders[key]}
                    onChange={(e) => setReminders((r) => ({ ...r, [key]: e.target.value }))}
                  />
                )}
              </Field>
            ))}
          </div>
        ) : null}
      </Group>

      <Group title="Send" description={canSend ? undefined : "Your role may not send packages: save it as a draft for someone who can."}>
        <fieldset className="space-y-2">
          <legend className="sr-only">When to send</legend>
          {(
            [
              ["now", "Send now"],
              ["later", "Schedule for later"],
              ["draft", "Save as draft"],
            ] as const
          ).map(([value, label]) => (
            <label key={value} className="flex items-center gap-2 text-sm text-zinc-800">
              <input
                type="radio"
                name="when"
                value={value}
                checked={when === value}
                disabled={!canSend && value !== "draft"}
                onChange={() => setWhen(value)}
                className="size-4 accent-brand-600"
              />
              {label}
            </label>
          ))}
        </fieldset>
        {when === "later" ? (
          <Field label="Send at" hint={`Your time zone: ${browserTimeZone()}.`} error={errors.sendAt}>
            {(p) => <Input {...p} type="datetime-local" value={sendAt} onChange={(e) => setSendAt(e.target.value)} className="sm:max-w-xs" />}
          </Field>
        ) : null}
      </Group>

      <div className="flex flex-wrap justify-end gap-3">
        <Link href="/packages" className={buttonClasses("secondary", "md")}>
          Cancel
        </Link>
        <Button type="submit" pending={create.isPending}>
          {when === "now" ? "Create and send" : when === "later" ? "Create and schedule" : "Save draft"}
        </Button>
      </div>
    </form>
  );
}
