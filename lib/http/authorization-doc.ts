// The generated parts of docs/authorization.md: the role table (lib/api/roles.ts's PERMISSIONS)
// and the refusal codes with their statuses (refusal-answer.ts). `node scripts/authorization-doc.mjs`
// writes them between their markers; lib/http/authorization-doc.test.ts fails when the document
// and the tables differ.
import { PERMISSIONS, type Permission, ROLES, roleFor } from "../auth/roles.ts";
import { REFUSAL_STATUS } from "./refusal-answer.ts";

const rank = (role: (typeof ROLES)[number]) => ROLES.indexOf(role);

/** Who may do what: one row per permission, a column per role. */
export function roleTable(): string {
  const header = `| Permission | ${ROLES.join(" | ")} | What it covers |`;
  const rule = `|---|${ROLES.map(() => ":-:").join("|")}|---|`;
  const rows = (Object.keys(PERMISSIONS) as Permission[]).map(
    (permission) =>
      `| ${permission} | ${ROLES.map((role) => (rank(role) >= rank(roleFor(permission)) ? "yes" : "—")).join(" | ")} | ${PERMISSIONS[permission].covers} |`,
  );
  const signedIn = `| signed-in | yes | yes | yes | who am I (GET /api/v1/me) and the OpenAPI document: anyone signed in, also without a role |`;
  return [header, rule, ...rows, signedIn].join("\n");
}

/** The refusal codes use cases answer in, and what the HTTP edge makes of them. */
export function refusalTable(): string {
  const rows = Object.entries(REFUSAL_STATUS).map(([code, { status, title }]) => `| ${code} | ${status} ${title} |`);
  return [
    "| Code | Answered as |",
    "|---|---|",
    ...rows,
    "| garden-refused | the garden's own status (a 403 of its admission as 422) |",
  ].join("\n");
}

export const SECTIONS = { "role-table": roleTable, "refusal-codes": refusalTable } as const;

/** `document` with each generated section between its markers written anew. */
export function withGeneratedSections(document: string): string {
  let out = document;
  for (const [name, render] of Object.entries(SECTIONS)) {
    const start = `<!-- generated: ${name} -->`;
    const end = `<!-- end: ${name} -->`;
    const from = out.indexOf(start);
    const to = out.indexOf(end);
    if (from < 0 || to < from) throw new Error(`docs/authorization.md lacks the markers of ${name}`);
    out = `${out.slice(0, from + start.length)}\n\n${render()}\n\n${out.slice(to)}`;
  }
  return out;
}
