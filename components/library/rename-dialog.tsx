"use client";

import { useState, type FormEvent } from "react";
import { errorMessage, fieldErrors } from "@/components/lib/api-client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogFooter } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { useRenameLibraryDocument, type TLibraryDocument } from "./query";

export function RenameDialog({ document, onClose }: { document: TLibraryDocument | null; onClose: () => void }) {
  return (
    <Dialog open={document !== null} onClose={onClose} title="Rename document" description="Templates that already added it keep their own name.">
      {document ? <RenameForm document={document} onDone={onClose} /> : null}
    </Dialog>
  );
}

function RenameForm({ document, onDone }: { document: TLibraryDocument; onDone: () => void }) {
  const rename = useRenameLibraryDocument();
  const [name, setName] = useState(document.name);
  const details = fieldErrors(rename.error);
  const general = rename.error && Object.keys(details).length === 0 ? errorMessage(rename.error) : null;

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    rename.mutate({ id: document.id, name }, { onSuccess: onDone });
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      {general ? <Alert tone="error">{general}</Alert> : null}
      <Field label="Name" error={details.name}>
        {(p) => <Input {...p} value={name} maxLength={200} data-autofocus onChange={(e) => setName(e.target.value)} />}
      </Field>
      <DialogFooter inset>
        <Button variant="secondary" onClick={onDone} disabled={rename.isPending}>
          Cancel
        </Button>
        <Button type="submit" pending={rename.isPending}>
          Save
        </Button>
      </DialogFooter>
    </form>
  );
}
