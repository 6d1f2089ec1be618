"use client";

// /tokens: API tokens for automation, newest first, with their role, who made them, when they
// expire and were last used. Admins create (the value is shown once) and revoke them here; anyone
// else sees that the page needs the admin role (the API answers 403).
import { useQuery } from "@tanstack/react-query";
import { Ban, Plus } from "lucide-react";
import { useState } from "react";
import { RoleBadge } from "@/components/accounts/role-badges";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { PageHeader, Panel } from "@/components/ui/page-header";
import { EmptyState, ErrorState, LoadingBlock, NeedsRoleState } from "@/components/ui/states";
import { RelativeTime, useNow } from "@/components/ui/time";
import { isForbidden, tokenState, type TokenState } from "@/lib/ui/access";
import type { ApiTokenJson } from "@/lib/ui/api-types";
import { tokensQuery } from "@/lib/client/queries";
import type { Tone } from "@/lib/ui/status";
import { CreateTokenDialog } from "./create-token-dialog";
import { RevokeTokenDialog } from "./revoke-token-dialog";
import { ScrollBox } from "@/components/ui/scroll-box";

const STATES: Record<TokenState, { word: string; tone: Tone }> = {
  active: { word: "Active", tone: "green" },
  expired: { word: "Expired", tone: "grey" },
  revoked: { word: "Revoked", tone: "red" },
};

export function TokensPage() {
  const tokens = useQuery(tokensQuery);
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiTokenJson>();
  const forbidden = isForbidden(tokens.error);
  const create = (
    <Button variant="primary" onClick={() => setCreating(true)}>
      <Plus aria-hidden className="size-4" /> New token
    </Button>
  );

  return (
    <div>
      <PageHeader
        title="API tokens"
        description="Tokens let scripts and pipelines call Almanac's API with Authorization: Bearer <token>, each under its own name and role. Only a hash is kept: a token's value is shown once, when it is created. A revoked token is refused at once."
        actions={!forbidden && create}
      />
      {forbidden ? (
        <NeedsRoleState
          title="You need the admin role on the whole landscape to manage API tokens."
          error={tokens.error}
        />
      ) : (
        <Panel>
          {tokens.isPending ? (
            <LoadingBlock label="Loading API tokens" lines={5} />
          ) : tokens.isError ? (
            <ErrorState
              title="The API tokens could not be loaded"
              error={tokens.error}
              onRetry={() => void tokens.refetch()}
            />
          ) : tokens.data.items.length === 0 ? (
            <EmptyState title="No API tokens yet" action={create}>
              Create one for each script or pipeline, with the smallest role it needs.
            </EmptyState>
          ) : (
            <TokensTable tokens={tokens.data.items} onRevoke={setRevoking} />
          )}
        </Panel>
      )}
      <CreateTokenDialog open={creating} onClose={() => setCreating(false)} />
      <RevokeTokenDialog token={revoking} onClose={() => setRevoking(undefined)} />
    </div>
  );
}

// Below lg each token is a card (two columns on a phone, four from sm up): its name and role, its
// state, when it was made, expires and was last used, each named (the column headings stay for
// screen readers only), then Revoke.
const CARDS_BELOW_LG = [
  "max-lg:block max-lg:[&_thead]:sr-only max-lg:[&_tbody]:block",
  "max-lg:[&_tbody_tr]:grid max-lg:[&_tbody_tr]:grid-cols-2 sm:max-lg:[&_tbody_tr]:grid-cols-4 max-lg:[&_tbody_tr]:py-2 max-lg:[&_td]:px-4 max-lg:[&_td]:py-1",
  "max-lg:[&_td:nth-child(-n+2)]:col-span-2 max-lg:[&_td:last-child]:col-span-full max-lg:[&_td:last-child]:text-left",
  "max-lg:[&_td]:before:block max-lg:[&_td]:before:text-xs max-lg:[&_td]:before:font-medium max-lg:[&_td]:before:text-slate-500",
  "max-lg:[&_td:nth-child(4)]:before:content-['Created'] max-lg:[&_td:nth-child(5)]:before:content-['Expires']",
  "max-lg:[&_td:nth-child(6)]:before:content-['Last_used']",
].join(" ");

function TokensTable({ tokens, onRevoke }: { tokens: readonly ApiTokenJson[]; onRevoke: (t: ApiTokenJson) => void }) {
  const now = useNow(30_000);
  return (
    <ScrollBox label="API tokens table" className="-mx-4 -my-4 sm:-mx-5 sm:-my-5">
      <table className={`w-full text-left text-sm ${CARDS_BELOW_LG}`}>
        <caption className="sr-only">API tokens, newest first</caption>
        <thead className="border-b border-slate-200 bg-slate-50 text-xs font-medium uppercase tracking-wide text-slate-500">
          <tr>
            {["Name", "Role", "State", "Created", "Expires", "Last used"].map((h) => (
              <th key={h} scope="col" className="whitespace-nowrap px-5 py-2.5">
                {h}
              </th>
            ))}
            <th scope="col" className="px-5 py-2.5 text-right">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {tokens.map((token) => {
            const state = tokenState(token, now);
            return (
              <tr key={token.id} className="align-top hover:bg-slate-50" data-token={token.name} data-state={state}>
                <td className="px-5 py-3 font-mono text-[13px] font-medium text-slate-900">{token.name}</td>
                <td className="px-5 py-3">
                  <RoleBadge binding={token} />
                </td>
                <td className="px-5 py-3">
                  <Badge tone={STATES[state].tone}>{STATES[state].word}</Badge>
                  {token.revoked && (
                    <div className="mt-1 text-xs text-slate-500">
                      <RelativeTime at={token.revoked} now={now} />
                    </div>
                  )}
                </td>
                <td className="whitespace-nowrap px-5 py-3 text-slate-700">
                  <RelativeTime at={token.created} now={now} />
                  <div className="text-xs text-slate-500">by {token.createdBy}</div>
                </td>
                <td className="whitespace-nowrap px-5 py-3 text-slate-700">
                  {token.expires ? <RelativeTime at={token.expires} now={now} /> : "never"}
                </td>
                <td className="whitespace-nowrap px-5 py-3 text-slate-700">
                  {token.lastUsed ? <RelativeTime at={token.lastUsed} now={now} /> : "never"}
                </td>
                <td className="whitespace-nowrap px-5 py-2.5 text-right">
                  {state !== "revoked" && (
                    <Button
                      variant="ghost"
                      className="text-red-700 hover:bg-red-50"
                      onClick={() => onRevoke(token)}
                      aria-label={`Revoke the token ${token.name}`}
                    >
                      <Ban aria-hidden className="size-4" /> Revoke
                    </Button>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </ScrollBox>
  );
}
