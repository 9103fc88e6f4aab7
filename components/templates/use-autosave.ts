"use client";

import { useCallback, useRef, useState } from "react";
import { errorMessage } from "@/components/lib/api-client";

export type TFailedSave = { id: number; label: string; message: string; retry: () => void; dismiss: () => void };
export type TAutosave = {
  /** Sends one change now; what it does is named by `label` ("Move of the Signature field") if it fails. */
  save: (label: string, send: () => Promise<unknown>) => Promise<boolean>;
  pending: number;
  failed: TFailedSave[];
  savedOnce: boolean;
};

/**
 * The editor's autosave: every change is sent at once; while any is on its way the editor says "Saving…", and
 * a change the server refused stays listed with its reason and a Retry until the member retries or dismisses
 * it, so nothing is lost silently.
 */
export function useAutosave(): TAutosave {
  const [pending, setPending] = useState(0);
  const [failed, setFailed] = useState<TFailedSave[]>([]);
  const [savedOnce, setSavedOnce] = useState(false);
  const seq = useRef(0);

  const save = useCallback(async (label: string, send: () => Promise<unknown>): Promise<boolean> => {
    const id = ++seq.current;
    setPending((n) => n + 1);
    try {
      await send();
      setSavedOnce(true);
      return true;
    } catch (err) {
      const dismiss = () => setFailed((list) => list.filter((f) => f.id !== id));
      const retry = () => {
        dismiss();
        void save(label, send);
      };
      setFailed((list) => [...list, { id, label, message: errorMessage(err) ?? "Not saved", retry, dismiss }]);
      return false;
    } finally {
      setPending((n) => n - 1);
    }
  }, []);

  return { save, pending, failed, savedOnce };
}
