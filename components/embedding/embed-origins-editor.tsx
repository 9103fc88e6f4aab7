"use client";

import { embedOriginProblem, MAX_EMBED_ORIGINS } from "@/common/embed-origin";
import { errorMessage } from "@/components/lib/api-client";
import { Alert } from "@/components/ui/alert";
import { RowListEditor } from "@/components/ui/row-list-editor";
import { useEmbedOrigins, useSetEmbedOrigins } from "./query";

/** The workspace's allowed embed origins: one row per origin, checked as typed (common/embed-origin.ts), saved as a whole. */
export function EmbedOriginsEditor() {
  const origins = useEmbedOrigins();
  if (origins.isPending) return <p className="text-sm text-zinc-500">Loading the embed origins…</p>;
  if (origins.isError) return <Alert tone="error">{errorMessage(origins.error)}</Alert>;
  return <Editor initial={origins.data.origins} />;
}

function Editor({ initial }: { initial: string[] }) {
  const save = useSetEmbedOrigins();
  return (
    <RowListEditor
      title="Allowed embed origins"
      description="Sites whose pages may show this workspace's signing pages in a frame. A signing URL for embedding names one of them, and only that site can frame it and hear its events. Every other signing page refuses to be framed."
      initial={initial}
      field="origins"
      problem={embedOriginProblem}
      unique
      max={{ count: MAX_EMBED_ORIGINS, message: `At most ${MAX_EMBED_ORIGINS} origins` }}
      save={{ pending: save.isPending, error: save.error, run: (origins, onSaved) => save.mutate({ origins }, { onSuccess: onSaved }) }}
      savedMessage="Embed origins saved. New embedded signing URLs use this list."
      emptyMessage="No origins: embedded signing is off. Add the origin of the page that will frame signing, such as https://app.example.com."
      list={{ label: "Allowed embed origins", idPrefix: "embed-origin", rowLabel: "Origin", removeNoun: "origin" }}
      input={{ placeholder: "https://app.example.com", inputMode: "url", autoComplete: "off", spellCheck: false }}
      hint={
        <p className="text-sm text-zinc-600">
          The scheme, host and port only: https, or http for localhost and 127.0.0.1 while you develop. No paths and no wildcards.
        </p>
      }
      addLabel="Add origin"
      saveLabel="Save origins"
    />
  );
}
