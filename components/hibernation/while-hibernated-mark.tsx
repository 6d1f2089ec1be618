// "Lands while hibernated": an update whose window falls while the cluster's schedule keeps it
// asleep. Gardener updates the spec in the window; the new version runs once the cluster wakes up.
import { Moon } from "lucide-react";
import { Badge } from "@/components/ui/badge";

export const WHILE_HIBERNATED_HINT =
  "The hibernation schedule keeps the cluster asleep at this moment: the window updates its spec, and the new version runs only once the cluster wakes up.";

export function WhileHibernatedMark({ className = "" }: { className?: string }) {
  return (
    <Badge
      tone="grey"
      icon={<Moon aria-hidden className="size-3.5" />}
      title={WHILE_HIBERNATED_HINT}
      className={className}
    >
      <span data-testid="while-hibernated">Lands while hibernated</span>
    </Badge>
  );
}
