import { Lock } from "lucide-react";
import type { Allowance } from "@/lib/ui/permissions";

/**
 * Why a control is disabled for the caller's role, as text beside it (the control points at it
 * with aria-describedby); nothing while allowed, or while the role is not yet known.
 */
export function NotAllowed({
  id,
  allowance,
  className = "",
}: {
  id: string;
  allowance: Allowance;
  className?: string;
}) {
  if (allowance.allowed || !allowance.reason) return null;
  return (
    <p id={id} data-testid="not-allowed" className={`flex items-start gap-1 text-xs text-slate-500 ${className}`}>
      <Lock aria-hidden className="mt-px size-3.5 shrink-0" />
      <span>{allowance.reason}</span>
    </p>
  );
}

/** The ids a control's aria-describedby names, leaving out those not shown; undefined for none. */
export function describedBy(...ids: (string | false | undefined)[]): string | undefined {
  const shown = ids.filter((id): id is string => !!id);
  return shown.length > 0 ? shown.join(" ") : undefined;
}

/** The id of a NotAllowed note when it is shown, for describedBy. */
export const reasonId = (id: string, allowance: Allowance) => (!allowance.allowed && allowance.reason ? id : undefined);
