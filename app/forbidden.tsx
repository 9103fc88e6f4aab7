import { Forbidden } from "@/components/shell/forbidden";
import { Logo } from "@/components/shell/logo";

/** forbidden() outside the signed-in shell: the 403 message on the sign-in pages' plain layout. */
export default function RootForbidden() {
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center px-4 py-12">
      <Logo className="mb-8" />
      <div className="w-full max-w-md rounded-xl border border-zinc-200 bg-white shadow-sm">
        <Forbidden />
      </div>
    </main>
  );
}
