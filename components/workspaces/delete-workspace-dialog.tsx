"use client";

import { useState } from "react";
import { errorMessage } from "@/components/lib/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { useDeleteWorkspace, useWorkspaceDeletionPreview, type TWorkspace, type TWorkspaceDeletion } from "./query";

const counted = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** "3 packages, 1 template, 2 API keys and no webhook endpoint", from the preview's counts. */
function contentsSentence({ packages, templates, apiKeys, webhookEndpoints }: TWorkspaceDeletion["deleted"]): string {
  const parts = [
    counted(packages, "package", "packages"),
    counted(templates, "template", "templates"),
    counted(apiKeys, "API key", "API keys"),
    counted(webhookEndpoints, "webhook endpoint", "webhook endpoints"),
  ];
  return `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
}

/**
 * Deleting a workspace cannot be undone: the dialog says what it holds (counted by the server when it opens) and
 * the owner types its name before the button works. A refusal the server would give (409) shows at once.
 */
export function DeleteWorkspaceDialog({
  workspace,
  onClose,
  onDeleted,
}: {
  workspace: TWorkspace | null;
  onClose: () => void;
  onDeleted: (message: string) => void;
}) {
  const remove = useDeleteWorkspace();
  const preview = useWorkspaceDeletionPreview(workspace?.id ?? null);
  const [typed, setTyped] = useState("");
  const matches = workspace !== null && preview.isSuccess && typed.trim() === workspace.name;

  function close() {
    remove.reset();
    setTyped("");
    onClose();
  }

  function confirm() {
    if (!workspace || !matches) return;
    remove.mutate(workspace.id, {
      onSuccess: (done) => {
        const { templates, packages } = done.deleted;
        onDeleted(
          `“${done.name}” was deleted, with ${packages === 1 ? "1 package" : `${packages} packages`} and ${templates === 1 ? "1 template" : `${templates} templates`}.`,
        );
        close();
      },
    });
  }

  return (
    <Dialog
      open={workspace !== null}
      onClose={close}
      dismissible={!remove.isPending}
      size="sm"
      title={`Delete “${workspace?.name ?? ""}”?`}
      description={
        workspace?.isTest ? (
          <>Everything in this test workspace goes for good: its templates, packages and their sealed files, documents, webhooks, mail and API keys.</>
        ) : (
          <>
            Everything in it goes for good: its templates, draft packages, documents, webhooks, mail and API keys. A live workspace that has sent packages keeps
            them as evidence and cannot be deleted.
          </>
        )
      }
      footer={
        <>
          <Button variant="secondary" onClick={close} disabled={remove.isPending} data-autofocus>
            Cancel
          </Button>
          <Button variant="danger" onClick={confirm} disabled={!matches} pending={remove.isPending}>
            Delete workspace
          </Button>
        </>
      }
    >
      <form
        className="space-y-4"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          confirm();
        }}
      >
        {preview.isPending ? (
          <p className="text-sm text-zinc-600" role="status">
            Counting what it holds…
          </p>
        ) : preview.isError ? (
          <Alert tone="error">{errorMessage(preview.error)}</Alert>
        ) : (
          <p className="text-sm text-zinc-700" data-testid="workspace-contents">
            It holds {contentsSentence(preview.data.deleted)}.
          </p>
        )}
        {remove.isError ? <Alert tone="error">{errorMessage(remove.error)}</Alert> : null}
        <Field label={`Type “${workspace?.name ?? ""}” to confirm`}>
          {(p) => <Input {...p} value={typed} autoComplete="off" onChange={(e) => setTyped(e.target.value)} />}
        </Field>
      </form>
    </Dialog>
  );
}
