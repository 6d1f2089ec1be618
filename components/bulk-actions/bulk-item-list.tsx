"use client";

// The clusters of a preview or of a running action, one line each: its name, a badge (a word and
// an icon, never colour alone), the sentence and the fields it changes. Drawn as a virtual list in
// a box of its own, so a selection of 5,000 scrolls as lightly as one of 5.
import { useVirtualizer } from "@tanstack/react-virtual";
import { useRef, type ReactNode } from "react";
import { formatAuditValue } from "@/lib/ui/audit-format";
import type { FieldChange } from "@/lib/api/bulk-actions";

export interface BulkLine {
  readonly namespace: string;
  readonly name: string;
  readonly badge: ReactNode;
  readonly message?: string;
  readonly changes: readonly FieldChange[];
}

const ESTIMATE = 60;

export function BulkItemList({ lines, label }: { lines: readonly BulkLine[]; label: string }) {
  const box = useRef<HTMLDivElement>(null);
  // TanStack Virtual hands out new functions each render (see components/fleet/fleet-table.tsx).
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtual = useVirtualizer({
    count: lines.length,
    getScrollElement: () => box.current,
    estimateSize: () => ESTIMATE,
    overscan: 6,
    initialRect: { width: 600, height: 320 },
  });
  return (
    <div
      ref={box}
      role="list"
      aria-label={label}
      tabIndex={0}
      className="max-h-[min(320px,40dvh)] overflow-y-auto rounded-lg border border-slate-200 focus-visible:outline-2 focus-visible:outline-accent-600"
    >
      <div className="relative" style={{ height: virtual.getTotalSize() }}>
        {virtual.getVirtualItems().map((item) => {
          const line = lines[item.index];
          return (
            <div
              key={`${line.namespace}/${line.name}`}
              ref={virtual.measureElement}
              data-index={item.index}
              role="listitem"
              data-bulk-item={`${line.namespace}/${line.name}`}
              className="absolute inset-x-0 border-b border-slate-100 px-3 py-2 text-sm last:border-b-0"
              style={{ transform: `translateY(${item.start}px)` }}
            >
              <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
                <span className="min-w-0 truncate">
                  <span className="font-medium text-slate-900">{line.name}</span>{" "}
                  <span className="text-xs text-slate-500">{line.namespace}</span>
                </span>
                {line.badge}
              </div>
              {line.message && <p className="mt-0.5 text-xs text-slate-600">{line.message}</p>}
              {line.changes.length > 0 && (
                <ul className="mt-0.5 space-y-0.5 text-xs text-slate-600">
                  {line.changes.map((c) => (
                    <li key={c.field} className="truncate">
                      <span className="font-mono text-[11px] text-slate-500">{c.field}</span>{" "}
                      {formatAuditValue(c.before, 40)} →{" "}
                      <span className="text-slate-900">{formatAuditValue(c.after, 40)}</span>
                    </li>
                  ))}
                </ul>
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}
