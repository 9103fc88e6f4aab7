"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { signOut } from "next-auth/react";
import { Alert } from "@/components/ui/alert";
import { Button, buttonClasses } from "@/components/ui/button";

export function SignOutForm() {
  const router = useRouter();
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: () => signOut({ redirect: false }),
    onSuccess: () => {
      // Nothing of the signed-in user stays in the browser's cache.
      queryClient.clear();
      router.replace("/signin");
      router.refresh();
    },
  });
  return (
    <div className="space-y-4">
      {mutation.isError ? <Alert tone="error">Could not sign out. Try again.</Alert> : null}
      <div className="flex gap-3">
        <Link href="/" className={buttonClasses("secondary", "md", "flex-1")}>
          Cancel
        </Link>
        <Button className="flex-1" onClick={() => mutation.mutate()} pending={mutation.isPending}>
          Sign out
        </Button>
      </div>
    </div>
  );
}
