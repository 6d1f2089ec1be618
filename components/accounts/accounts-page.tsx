"use client";

// /accounts: the people who may sign in and their roles. Admins make accounts, change roles and
// delete accounts here; anyone else sees that the page needs the admin role (the API answers 403).
import { useQuery } from "@tanstack/react-query";
import { KeyRound, Trash2, UserPlus } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { PageHeader, Panel } from "@/components/ui/page-header";
import { EmptyState, ErrorState, LoadingBlock, NeedsRoleState } from "@/components/ui/states";
import { RelativeTime } from "@/components/ui/time";
import { isForbidden } from "@/lib/ui/access";
import type { AccountJson } from "@/lib/ui/api-types";
import { accountsQuery, meQuery } from "@/lib/client/queries";
import { CreateAccountDialog } from "./create-account-dialog";
import { DeleteAccountDialog } from "./delete-account-dialog";
import { RoleBadges } from "./role-badges";
import { RolesDialog } from "./roles-dialog";
import { ScrollBox } from "@/components/ui/scroll-box";

export function AccountsPage() {
  const accounts = useQuery(accountsQuery);
  const me = useQuery(meQuery);
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<AccountJson>();
  const [deleting, setDeleting] = useState<AccountJson>();
  const forbidden = isForbidden(accounts.error);

  return (
    <div>
      <PageHeader
        title="Accounts"
        description="People who sign in to Almanac, with a password or the company sign-in, and their roles; company groups may bring roles too. A viewer reads; an operator also changes maintenance, versions and hibernation; an admin also migrates and deletes clusters, and on the whole landscape manages accounts and API tokens."
        actions={
          !forbidden && (
            <Button variant="primary" onClick={() => setCreating(true)}>
              <UserPlus aria-hidden className="size-4" /> New account
            </Button>
          )
        }
      />
      {forbidden ? (
        <NeedsRoleState
          title="You need the admin role on the whole landscape to manage accounts."
          error={accounts.error}
        />
      ) : (
        <Panel>
          {accounts.isPending ? (
            <LoadingBlock label="Loading accounts" lines={5} />
          ) : accounts.isError ? (
            <ErrorState
              title="The accounts could not be loaded"
              error={accounts.error}
              onRetry={() => void accounts.refetch()}
            />
          ) : accounts.data.items.length === 0 ? (
            <EmptyState
              title="No accounts yet"
              action={
                <Button variant="primary" onClick={() => setCreating(true)}>
                  New account
                </Button>
              }
            >
              Only automation with a token signs in here so far.
            </EmptyState>
          ) : (
            <AccountsTable
              accounts={accounts.data.items}
              myId={me.data?.kind === "user" ? me.data.email : undefined}
              onEdit={setEditing}
              onDelete={setDeleting}
            />
          )}
        </Panel>
      )}
      <CreateAccountDialog open={creating} onClose={() => setCreating(false)} />
      <RolesDialog account={editing} onClose={() => setEditing(undefined)} />
      <DeleteAccountDialog account={deleting} onClose={() => setDeleting(undefined)} />
    </div>
  );
}

// Below lg each account is a card: the person, their roles, since when, then the actions (the
// column headings stay for screen readers only).
const CARDS_BELOW_LG = [
  "max-lg:block max-lg:[&_thead]:sr-only max-lg:[&_tbody]:block max-lg:[&_tbody_tr]:block max-lg:[&_tbody_tr]:py-2",
  "max-lg:[&_td]:block max-lg:[&_td]:px-4 max-lg:[&_td]:py-1 max-lg:[&_td:last-child]:text-left",
  "max-lg:[&_td:nth-child(3)]:before:content-['Created_']",
].join(" ");

function AccountsTable({
  accounts,
  myId,
  onEdit,
  onDelete,
}: {
  accounts: readonly AccountJson[];
  /** The signed-in person's email, to mark their row (they cannot delete themself). */
  myId: string | undefined;
  onEdit: (account: AccountJson) => void;
  onDelete: (account: AccountJson) => void;
}) {
  return (
    <ScrollBox label="Accounts table" className="-mx-4 -my-4 sm:-mx-5 sm:-my-5">
      <table className={`w-full text-left text-sm ${CARDS_BELOW_LG}`}>
        <caption className="sr-only">Accounts, by email</caption>
        <thead className="border-b border-slate-200 bg-slate-50 text-xs font-medium uppercase tracking-wide text-slate-500">
          <tr>
            <th scope="col" className="px-5 py-2.5">
              Person
            </th>
            <th scope="col" className="px-5 py-2.5">
              Roles
            </th>
            <th scope="col" className="px-5 py-2.5">
              Created
            </th>
            <th scope="col" className="px-5 py-2.5 text-right">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {accounts.map((account) => {
            const self = account.email === myId;
            const label = account.name || account.email;
            return (
              <tr key={account.id} className="align-top hover:bg-slate-50" data-account={account.email}>
                <td className="px-5 py-3">
                  <div className="font-medium text-slate-900">
                    {label}
                    {self && <span className="ml-2 text-xs font-normal text-slate-500">(you)</span>}
                  </div>
                  <div className="text-xs text-slate-500">{account.email}</div>
                  {account.groups.length > 0 && (
                    <div className="mt-1 text-xs text-slate-500">
                      <span className="font-medium text-slate-600">Groups:</span> {account.groups.join(", ")}
                    </div>
                  )}
                </td>
                <td className="space-y-1.5 px-5 py-3">
                  {(account.bindings.length > 0 || account.groupBindings.length === 0) && (
                    <RoleBadges bindings={account.bindings} />
                  )}
                  {account.groupBindings.length > 0 && (
                    <div className="flex flex-wrap items-center gap-1.5 text-xs text-slate-500">
                      <span>From groups:</span>
                      <RoleBadges bindings={account.groupBindings} />
                    </div>
                  )}
                </td>
                <td className="whitespace-nowrap px-5 py-3 text-slate-700">
                  <RelativeTime at={account.created} />
                </td>
                <td className="whitespace-nowrap px-5 py-2.5 text-right">
                  <div className="inline-flex gap-2">
                    <Button onClick={() => onEdit(account)} aria-label={`Change roles of ${label}`}>
                      <KeyRound aria-hidden className="size-4" /> Change roles
                    </Button>
                    <Button
                      variant="ghost"
                      className="text-red-700 hover:bg-red-50"
                      onClick={() => onDelete(account)}
                      disabled={self}
                      title={self ? "You cannot delete your own account; another admin can." : undefined}
                      aria-label={`Delete the account of ${label}`}
                    >
                      <Trash2 aria-hidden className="size-4" /> Delete
                    </Button>
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </ScrollBox>
  );
}
