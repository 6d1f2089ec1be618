import { AlertTriangle, CheckCircle2, CircleDashed, CircleHelp, FlaskConical, Loader2, XCircle } from "lucide-react";
import { Badge } from "./badge";
import {
  CLASSIFICATION_META,
  CONDITION_SHORT,
  STATUS_META,
  conditionTone,
  conditionWord,
  type Classification,
  type StatusLabel,
  type Tone,
} from "@/lib/ui/status";

const ICON = "size-3.5 shrink-0";

export function toneIcon(tone: Tone, spin = false) {
  switch (tone) {
    case "green":
      return <CheckCircle2 aria-hidden className={ICON} />;
    case "blue":
      return <Loader2 aria-hidden className={`${ICON} ${spin ? "animate-spin" : ""}`} />;
    case "amber":
      return <AlertTriangle aria-hidden className={ICON} />;
    case "red":
      return <XCircle aria-hidden className={ICON} />;
    case "violet":
      return <FlaskConical aria-hidden className={ICON} />;
    default:
      return <CircleHelp aria-hidden className={ICON} />;
  }
}

export function StatusBadge({ label }: { label: StatusLabel }) {
  const meta = STATUS_META[label] ?? STATUS_META.unknown;
  return (
    <Badge tone={meta.tone} icon={toneIcon(meta.tone)} title={meta.hint}>
      {meta.word}
    </Badge>
  );
}

export function ClassificationBadge({
  classification,
  className,
}: {
  classification: Classification | string;
  className?: string;
}) {
  const meta = CLASSIFICATION_META[classification as Classification];
  if (!meta)
    return (
      <Badge tone="grey" icon={<CircleDashed aria-hidden className={ICON} />}>
        {classification}
      </Badge>
    );
  return (
    <Badge tone={meta.tone} icon={toneIcon(meta.tone)} title={meta.hint} className={className}>
      {meta.word}
    </Badge>
  );
}

export interface ConditionLike {
  readonly type: string;
  readonly status: string;
  readonly reason?: string;
  readonly message?: string;
}

/** One chip per condition: short name plus icon; the tooltip spells out type, status and reason. */
export function ConditionChips({ conditions }: { conditions: readonly ConditionLike[] }) {
  return (
    <span className="inline-flex flex-wrap gap-1">
      {conditions.map((c) => {
        const tone = conditionTone(c.status);
        const word = conditionWord(c.status);
        const label = `${c.type}: ${word}${c.reason ? ` (${c.reason})` : ""}`;
        return (
          <span
            key={c.type}
            title={`${label}${c.message ? ` — ${c.message}` : ""}`}
            className={`inline-flex items-center gap-0.5 rounded px-1 py-0.5 font-mono text-[11px] font-medium ring-1 ring-inset ${tone === "green" ? "bg-white text-slate-600 ring-slate-300" : `${toneClass(tone)}`}`}
          >
            {tone !== "green" && <span className="[&>svg]:size-3">{toneIcon(tone, true)}</span>}
            <span aria-hidden>{CONDITION_SHORT[c.type] ?? c.type}</span>
            <span className="sr-only">{label}</span>
          </span>
        );
      })}
    </span>
  );
}

function toneClass(tone: Tone) {
  return tone === "red"
    ? "bg-red-50 text-red-800 ring-red-600/30"
    : tone === "blue"
      ? "bg-sky-50 text-sky-800 ring-sky-600/30"
      : "bg-slate-100 text-slate-700 ring-slate-500/30";
}
