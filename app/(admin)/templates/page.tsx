import type { Metadata } from "next";
import { PlaceholderPage } from "@/components/shell/placeholder-page";

export const metadata: Metadata = { title: "Templates" };

export default function Page() {
  return <PlaceholderPage title="Templates" whatWillBeHere="Your templates will be listed here: reusable documents with signer roles, fields and merge fields from which packages are created." />;
}
