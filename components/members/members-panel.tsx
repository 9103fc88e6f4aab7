"use client";

import { useState } from "react";
import { errorMessage } from "@/components/lib/api-client";
import { formatDate, plural } from "@/components/lib/format";
import { useRoles } from "@/components/roles/query";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { Select } from "@/components/ui/input";
import { TBody, TD, TH, THead, TR, Table } from "@/components/ui/table";
import { AddMemberDialog } from "./add-member-dialog";
import { InviteLinkDialog, type TShownInvite } from "./invite-link-dialog";
import { MemberSessionsDialog } from "./member-sessions-dialog";
import { TransferOwnershipDialog } from "./transfer-ownership-dialog";
import { useChangeMemberRole, useEndMemberSessions, useIssuePasswordLink, useMembers, useRemoveMember, type TMember } from "./query";

export function MembersPanel({ canManage }: { canManage: boolean }) {
  const members = useMembers();
  const roles = useRoles();
  const changeRole = useChangeMemberRole();
  const remove = useRemoveMember();
  const issueLink = useIssuePasswordLink();
  const endSessions = useEndMemberSessions();
  const [viewingSessions, setViewingSessions] = useState<TMember | null>(null);
  const [signingOut, setSigningOut] = useState<TMember | null>(null);
  const [linking, setLinking] = useState<TMember | null>(null);
  const [handingOver, setHandingOver] = useState<TMember | null>(null);
  const [adding, setAdding] = useState(false);
  const [invite, setInvite] = useState<TShownInvite | null>(null);
  const [removing, setRemoving] = useState<TMember | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const addButton = canManage ? (
    <Button onClick={() => setAdding(true)} disabled={!roles.data}>
      Add member
    </Button>
  ) : null;

  function onChangeRole(member: TMember, roleId: string) {
    setNotice(null);
    changeRole.mutate({ userId: member.userId, roleId }, { onSuccess: () => setNotice(`${member.name}'s role was changed.`) });
  }

  return (
    <>
      <Card>
        <CardHeader title="Members" description="Everyone who can sign in to this organisation." actions={addButton} />
        {notice ? (
          <div className="px-6 pt-4">
            <Alert tone="success">{notice}</Alert>
          </div>
        ) : null}
        {changeRole.isError ? (
          <div className="px-6 pt-4">
            <Alert tone="error" title="The role was not changed">
              {errorMessage(changeRole.error)}
            </Alert>
          </div>
        ) : null}
        {members.isPending ? (
          <p className="px-6 py-10 text-center text-sm text-zinc-500">Loading members…</p>
        ) : members.isError ? (
          <div className="p-6">
            <Alert tone="error">{errorMessage(members.error)}</Alert>
          </div>
        ) : (
          <>
            <MembersTable
              members={members.data}
              canManage={canManage}
              roles={roles.data ?? []}
              onChangeRole={onChangeRole}
              onRemove={setRemoving}
              onLink={setLinking}
              onSessions={setViewingSessions}
              onMakeOwner={setHandingOver}
              pendingUserId={changeRole.isPending ? (changeRole.variables?.userId ?? null) : null}
            />
            {members.data.length <= 1 ? (
              <div className="border-t border-zinc-100">
                <EmptyState
                  title="Only you so far"
                  description="Add the people who prepare and send packages. Each gets a role that decides what they can do."
                  action={addButton}
                />
              </div>
            ) : null}
          </>
        )}
      </Card>

      <AddMemberDialog
        open={adding}
        onClose={() => setAdding(false)}
        roles={roles.data ?? []}
        onAdded={(member, email) => {
          setAdding(false);
          setNotice(`${email} was added.`);
          if (member.invite) setInvite({ email, path: member.invite.path, expiresAt: member.invite.expiresAt, purpose: "invite" });
        }}
      />
      <InviteLinkDialog invite={invite} onDone={() => setInvite(null)} />
      <TransferOwnershipDialog member={handingOver} onClose={() => setHandingOver(null)} />
      <MemberSessionsDialog
        member={viewingSessions}
        onClose={() => setViewingSessions(null)}
        onSignOut={(member) => {
          setViewingSessions(null);
          setSigningOut(member);
        }}
      />
      <ConfirmDialog
        open={linking !== null}
        destructive={false}
        title={linking?.status === "INVITED" ? `New invite link for ${linking.name}?` : `Reset the password of ${linking?.name ?? ""}?`}
        description={
          linking?.status === "INVITED" ? (
            <>You get a new one-time link to send to {linking.email}. It works for 7 days; the link they had stops working.</>
          ) : (
            <>
              You get a one-time link to send to {linking?.email}. It works once, for 24 hours: they choose a new password, and every session of theirs ends.
              Their current password keeps working until then.
            </>
          )
        }
        confirmLabel={linking?.status === "INVITED" ? "Make a new link" : "Make a reset link"}
        pending={issueLink.isPending}
        error={issueLink.isError ? errorMessage(issueLink.error) : null}
        onCancel={() => {
          issueLink.reset();
          setLinking(null);
        }}
        onConfirm={() =>
          linking &&
          issueLink.mutate(linking.userId, {
            onSuccess: (link) => {
              setLinking(null);
              setInvite({ email: linking.email, path: link.path, expiresAt: link.expiresAt, purpose: link.purpose });
            },
          })
        }
      />
      <ConfirmDialog
        open={signingOut !== null}
        title={`Sign ${signingOut?.name ?? ""} out everywhere?`}
        description={
          <>
            Every session of theirs ends at its next request: each browser goes to the sign-in page. Their password still works; to keep them out, make a reset
            link or remove them.
          </>
        }
        confirmLabel="Sign out everywhere"
        pending={endSessions.isPending}
        error={endSessions.isError ? errorMessage(endSessions.error) : null}
        onCancel={() => {
          endSessions.reset();
          setSigningOut(null);
        }}
        onConfirm={() =>
          signingOut &&
          endSessions.mutate(signingOut.userId, {
            onSuccess: ({ ended }) => {
              setNotice(ended === 0 ? `${signingOut.name} was not signed in anywhere.` : `${signingOut.name} was signed out of ${plural(ended, "session")}.`);
              setSigningOut(null);
            },
          })
        }
      />
      <ConfirmDialog
        open={removing !== null}
        title={`Remove ${removing?.name ?? ""}?`}
        description={<>{removing?.email} can no longer sign in, and every API key they issued stops working at once (401). Packages and audit history stay.</>}
        confirmLabel="Remove member"
        pending={remove.isPending}
        error={remove.isError ? errorMessage(remove.error) : null}
        onCancel={() => {
          remove.reset();
          setRemoving(null);
        }}
        onConfirm={() =>
          removing &&
          remove.mutate(removing.userId, {
            onSuccess: () => {
              setNotice(`${removing.email} was removed.`);
              setRemoving(null);
            },
          })
        }
      />
    </>
  );
}

type TTableProps = {
  members: TMember[];
  roles: { id: string; name: string }[];
  canManage: boolean;
  onChangeRole: (member: TMember, roleId: string) => void;
  onRemove: (member: TMember) => void;
  onLink: (member: TMember) => void;
  onSessions: (member: TMember) => void;
  onMakeOwner: (member: TMember) => void;
  pendingUserId: string | null;
};

function MembersTable({ members, roles, canManage, onChangeRole, onRemove, onLink, onSessions, onMakeOwner, pendingUserId }: TTableProps) {
  return (
    <Table aria-label="Members">
      <THead>
        <TR>
          <TH>Member</TH>
          <TH>Role</TH>
          {canManage ? (
            <TH className="text-right">
              <span className="sr-only">Actions</span>
            </TH>
          ) : null}
        </TR>
      </THead>
      <TBody>
        {members.map((m) => (
          <TR key={m.userId} data-testid="member-row">
            {/* A long name or address wraps anywhere (the table never scrolls for it), but not below 12rem, where a
                usual address fits on its line. */}
            <TD className="min-w-48 max-w-64">
              <p className="font-medium wrap-anywhere text-zinc-900">
                {m.name}
                {m.isOwner ? (
                  <Badge tone="brand" className="ml-2">
                    Owner
                  </Badge>
                ) : null}
              </p>
              <p className="text-xs wrap-anywhere text-zinc-500">{m.email}</p>
              {/* The member's status under their address: a column of its own left the row's actions no room. */}
              <p className="mt-1">
                {m.status === "INVITED" ? (
                  <Badge tone="warning">{m.inviteExpiresAt ? `Invited · link until ${formatDate(m.inviteExpiresAt)}` : "Invited · link expired"}</Badge>
                ) : (
                  <span className="text-xs text-zinc-500">
                    Joined {formatDate(m.joinedAt)}
                    {m.inviteExpiresAt ? <span className="block">Reset link until {formatDate(m.inviteExpiresAt)}</span> : null}
                  </span>
                )}
              </p>
            </TD>
            <TD>
              {canManage && !m.isOwner ? (
                <Select
                  aria-label={`Role of ${m.name}`}
                  className="h-8 w-40 min-w-32"
                  value={m.role.id}
                  disabled={pendingUserId === m.userId}
                  onChange={(e) => onChangeRole(m, e.target.value)}
                >
                  {roles.map((r) => (
                    <option key={r.id} value={r.id}>
                      {r.name}
                    </option>
                  ))}
                </Select>
              ) : (
                m.role.name
              )}
            </TD>
            {canManage ? (
              <TD className="text-right">
                {!m.isOwner ? (
                  <div className="flex flex-wrap justify-end gap-1">
                    <Button variant="ghost" size="sm" onClick={() => onLink(m)}>
                      {m.status === "INVITED" ? "New invite link" : "Reset password"}
                      <span className="sr-only"> of {m.name}</span>
                    </Button>
                    {m.status === "ACTIVE" ? (
                      <>
                        <Button variant="ghost" size="sm" onClick={() => onSessions(m)}>
                          Sessions<span className="sr-only"> of {m.name}</span>
                        </Button>
                        <Button variant="ghost" size="sm" onClick={() => onMakeOwner(m)}>
                          Make owner<span className="sr-only"> {m.name}</span>
                        </Button>
                      </>
                    ) : null}
                    <Button variant="danger-ghost" size="sm" onClick={() => onRemove(m)}>
                      Remove<span className="sr-only"> {m.name}</span>
                    </Button>
                  </div>
                ) : null}
              </TD>
            ) : null}
          </TR>
        ))}
      </TBody>
    </Table>
  );
}
