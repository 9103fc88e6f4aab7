import type { TCreateApiKey } from "@/server/domain/keys/schemas";

export type TCreateKeyForm = { name: string; roleId: string; workspaceId: string; expiresOn: string };

/**
 * The create-key request from the dialog's fields. The browser's time zone goes along only with an expiry
 * date, the one thing it places: a key that never expires has no use for it, and sending it anyway let an
 * unusual browser zone refuse the key on a field the owner never saw.
 */
export function createKeyInput(form: TCreateKeyForm, timeZone: string): TCreateApiKey {
  const { name, roleId, workspaceId } = form;
  return form.expiresOn ? { name, roleId, workspaceId, expiresOn: form.expiresOn, timeZone } : { name, roleId, workspaceId };
}
