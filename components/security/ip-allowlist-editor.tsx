"use client";

import { isIpOrCidr } from "@/common/ip-entry";
import { errorMessage } from "@/components/lib/api-client";
import { Alert } from "@/components/ui/alert";
import { RowListEditor } from "@/components/ui/row-list-editor";
import { useIpAllowlist, useSetIpAllowlist } from "./query";

const INVALID = "Enter an IPv4 or IPv6 address, or a CIDR range such as 203.0.113.0/24";

export function IpAllowlistEditor() {
  const allowlist = useIpAllowlist();
  if (allowlist.isPending) return <p className="text-sm text-zinc-500">Loading the allowlist…</p>;
  if (allowlist.isError) return <Alert tone="error">{errorMessage(allowlist.error)}</Alert>;
  return <Editor initial={allowlist.data.entries} />;
}

function Editor({ initial }: { initial: string[] }) {
  const save = useSetIpAllowlist();
  return (
    <RowListEditor
      title="IP allowlist"
      description="When the list has entries, API calls from any other address are refused (403 “IP address not allowed”). Signing in to this app is not affected."
      initial={initial}
      field="entries"
      problem={(value) => (isIpOrCidr(value) ? null : INVALID)}
      save={{ pending: save.isPending, error: save.error, run: (entries, onSaved) => save.mutate({ entries }, { onSuccess: onSaved }) }}
      savedMessage="Allowlist saved. It applies to the next API request."
      emptyMessage="No allowlist: API keys work from any address. Add an address or range to restrict them."
      list={{ label: "Allowed addresses", idPrefix: "ip-entry", rowLabel: "Address or range", removeNoun: "address" }}
      input={{ placeholder: "203.0.113.0/24 or 2001:db8::/32" }}
      addLabel="Add address or range"
      saveLabel="Save allowlist"
    />
  );
}
