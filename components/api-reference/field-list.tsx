import type { FieldRow } from "@/lib/ui/api-reference";
import { TypeText } from "./type-text";

/**
 * The fields of a body or schema, one per row, nested fields indented below their parent. Rows
 * rather than a table, so that a long path or type wraps at 390 px instead of scrolling.
 */
export function FieldList({ fields, label }: { fields: readonly FieldRow[]; label: string }) {
  if (fields.length === 0) return <p className="text-sm text-slate-500">No fields are described.</p>;
  return (
    <ul aria-label={label} className="divide-y divide-slate-100 rounded-lg border border-slate-200">
      {fields.map((field) => (
        <li key={field.path} className="px-3 py-2 text-sm" style={{ paddingLeft: `${0.75 + field.depth * 1.25}rem` }}>
          <div className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
            <code className="break-all font-mono text-xs font-semibold text-slate-900">{field.path}</code>
            <TypeText parts={field.type} />
            {field.required ? (
              <span className="text-xs font-medium text-slate-700">required</span>
            ) : (
              <span className="text-xs text-slate-500">optional</span>
            )}
            {field.notes.length > 0 && <span className="text-xs text-slate-500">{field.notes.join(", ")}</span>}
          </div>
          {field.description && <p className="mt-0.5 text-slate-600">{field.description}</p>}
        </li>
      ))}
    </ul>
  );
}
