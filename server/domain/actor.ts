/**
 * Who acts from the signed-in app (a next-auth session), as domain functions receive it.
 * The API side uses TApiContext (server/http/context.ts) instead.
 */
export type TSessionActor = {
  userId: string;
  organisationId: string;
  isOwner: boolean;
  roleId: string;
  email: string;
  name: string;
};
