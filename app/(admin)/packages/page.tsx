import type { Metadata } from "next";
import { PlaceholderPage } from "@/components/shell/placeholder-page";

export const metadata: Metadata = { title: "Packages" };

export default function Page() {
  return <PlaceholderPage title="Packages" whatWillBeHere="Your packages (documents sent for signing) will be listed here with their status, recipients and progress, and you will be able to create, send, hold and void them." />;
}
