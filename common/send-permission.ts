/**
 * Who may act on a package (docs/decisions/actions-on-sent-packages.md). Sending needs `canSendPackages`, and so
 * does every action on a package that has left DRAFT: once it is scheduled or sent, changing, correcting,
 * transferring or deleting it is the sender's decision, like sending. A DRAFT is still being prepared — creating
 * one needs no permission — so its preparer may edit, correct, transfer and delete it without one. Void, hold,
 * resume, remind and signing links apply only to sent packages and always need the permission.
 * Shared by the server (the domain's check) and the package page (which disables what the member may not do).
 */
export function actingNeedsSendPermission(status: string): boolean {
  return status !== "DRAFT";
}
