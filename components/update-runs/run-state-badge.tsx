// A run's, a stage's or a cluster's state as a badge: the word, an icon and the tone, so colour
// is never the only signal.
import {
  Ban,
  CheckCircle2,
  CircleDashed,
  Clock,
  HeartPulse,
  Hourglass,
  Loader2,
  PauseCircle,
  UserCheck,
  XCircle,
} from "lucide-react";
import { Badge } from "@/components/ui/badge";
import type { StateMeta } from "@/lib/ui/update-run-text";

const ICON = "size-3.5 shrink-0";

export function StateIcon({ icon, className = ICON }: { icon: StateMeta["icon"]; className?: string }) {
  switch (icon) {
    case "running":
      return <Loader2 aria-hidden className={`${className} motion-safe:animate-spin`} />;
    case "approval":
      return <UserCheck aria-hidden className={className} />;
    case "paused":
      return <PauseCircle aria-hidden className={className} />;
    case "done":
      return <CheckCircle2 aria-hidden className={className} />;
    case "failed":
      return <XCircle aria-hidden className={className} />;
    case "cancelled":
      return <Ban aria-hidden className={className} />;
    case "soak":
      return <Hourglass aria-hidden className={className} />;
    case "gate":
      return <HeartPulse aria-hidden className={className} />;
    case "clock":
      return <Clock aria-hidden className={className} />;
    default:
      return <CircleDashed aria-hidden className={className} />;
  }
}

export function StateBadge({ meta, title }: { meta: StateMeta; title?: string }) {
  return (
    <Badge tone={meta.tone} icon={<StateIcon icon={meta.icon} />} title={title}>
      {meta.word}
    </Badge>
  );
}
