// An account's or token's roles as small pills: the role, and where it holds.
import { Badge } from "@/components/ui/badge";
import type { RoleBindingJson } from "@/lib/ui/api-types";
import { scopeLabel } from "@/lib/ui/access";
import type { Tone } from "@/lib/ui/status";

const TONES: Record<RoleBindingJson["role"], Tone> = { viewer: "grey", operator: "blue", admin: "amber" };

export function RoleBadge({ binding }: { binding: RoleBindingJson }) {
  return (
    <Badge tone={TONES[binding.role]}>
      <span className="font-semibold">{binding.role}</span>
      <span className="font-normal opacity-80">· {scopeLabel(binding.scope).toLowerCase()}</span>
    </Badge>
  );
}

export function RoleBadges({ bindings }: { bindings: readonly RoleBindingJson[] }) {
  if (bindings.length === 0) return <span className="text-sm text-slate-500">No role: cannot see anything</span>;
  return (
    <ul className="flex flex-wrap gap-1.5" aria-label="Roles">
      {bindings.map((b) => (
        <li key={b.scope}>
          <RoleBadge binding={b} />
        </li>
      ))}
    </ul>
  );
}
