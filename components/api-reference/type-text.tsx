import type { TypePart } from "@/lib/ui/api-reference";

/** A type in words; each named schema links to its entry under "Schemas". */
export function TypeText({ parts }: { parts: readonly TypePart[] }) {
  return (
    <span className="font-mono text-xs text-slate-700">
      {parts.map((part, i) =>
        "schema" in part ? (
          <a
            key={i}
            href={`#schema-${part.schema}`}
            className="font-medium text-accent-700 underline decoration-accent-500/40 underline-offset-2 hover:decoration-accent-600"
          >
            {part.schema}
          </a>
        ) : (
          <span key={i}>{part.text}</span>
        ),
      )}
    </span>
  );
}
