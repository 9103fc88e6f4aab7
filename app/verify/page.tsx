import type { Metadata } from "next";
import { Logo } from "@/components/shell/logo";
import { VerifyForm } from "@/components/verify/verify-form";

export const metadata: Metadata = { title: "Verify a signed PDF" };

/** Public: anyone holding a PDF can check it against this instance's seals, without an account. */
export default function VerifyPage() {
  return (
    <main className="flex min-h-dvh flex-col items-center px-4 py-10 sm:py-16">
      <Logo className="mb-8" />
      <div className="w-full max-w-lg rounded-xl border border-zinc-200 bg-white p-6 shadow-sm sm:p-8">
        <h1 className="text-xl font-semibold tracking-tight text-zinc-900">Verify a signed PDF</h1>
        <p className="mt-1 text-sm text-zinc-600">
          Choose a PDF to learn whether this Foliosign instance sealed it and whether it has been changed since. The file is checked on this server and is not
          kept.
        </p>
        <div className="mt-6">
          <VerifyForm />
        </div>
      </div>
    </main>
  );
}
