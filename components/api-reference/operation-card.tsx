import { ChevronRight, ShieldCheck } from "lucide-react";
import type { ReferenceOperation } from "@/lib/ui/api-reference";
import { FieldList } from "./field-list";
import { TypeText } from "./type-text";

/** Reads are quiet, changes stand out: the same accent the pages use for their actions. */
const METHOD_CLASSES: Record<string, string> = {
  GET: "bg-slate-100 text-slate-800 ring-slate-500/20",
  POST: "bg-accent-50 text-accent-700 ring-accent-600/25",
  PUT: "bg-accent-50 text-accent-700 ring-accent-600/25",
  PATCH: "bg-accent-50 text-accent-700 ring-accent-600/25",
  DELETE: "bg-red-50 text-red-800 ring-red-600/20",
};

export function MethodBadge({ method }: { method: string }) {
  return (
    <span
      className={`inline-flex w-16 shrink-0 justify-center rounded-md px-1.5 py-0.5 font-mono text-xs font-semibold ring-1 ring-inset ${METHOD_CLASSES[method] ?? METHOD_CLASSES.GET}`}
    >
      {method}
    </span>
  );
}

function Subheading({ children }: { children: string }) {
  return <h4 className="mb-2 text-xs font-semibold uppercase tracking-wide text-slate-500">{children}</h4>;
}

/** One operation: a summary line that opens onto its parameters, body and answers. */
export function OperationCard({ operation }: { operation: ReferenceOperation }) {
  return (
    <details id={operation.id} className="group scroll-mt-20 rounded-xl border border-slate-200 bg-white shadow-sm">
      <summary className="flex cursor-pointer list-none items-start gap-3 rounded-xl px-4 py-3 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-accent-600 [&::-webkit-details-marker]:hidden">
        <ChevronRight
          aria-hidden="true"
          className="mt-0.5 size-4 shrink-0 text-slate-500 transition-transform group-open:rotate-90"
        />
        <MethodBadge method={operation.method} />
        <span className="min-w-0 flex-1">
          <code className="block break-all font-mono text-sm font-medium text-slate-900">{operation.path}</code>
          <span className="mt-0.5 block text-sm text-slate-600">{operation.summary}</span>
        </span>
        <span className="hidden shrink-0 items-center gap-1 text-xs text-slate-600 sm:inline-flex">
          <ShieldCheck aria-hidden="true" className="size-3.5" />
          {operation.access}
        </span>
      </summary>
      <div className="space-y-5 border-t border-slate-100 px-4 py-4 text-sm">
        <p className="flex items-center gap-1 text-slate-700 sm:hidden">
          <ShieldCheck aria-hidden="true" className="size-3.5" />
          {operation.access}
        </p>
        {operation.description && (
          <div className="max-w-3xl space-y-2 text-slate-700">
            {operation.description.split("\n\n").map((paragraph) => (
              <p key={paragraph}>{paragraph}</p>
            ))}
          </div>
        )}
        {operation.parameters.length > 0 && (
          <section>
            <Subheading>Parameters</Subheading>
            <ul
              aria-label={`Parameters of ${operation.method} ${operation.path}`}
              className="divide-y divide-slate-100 rounded-lg border border-slate-200"
            >
              {operation.parameters.map((p) => (
                <li key={`${p.in}-${p.name}`} className="px-3 py-2">
                  <div className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
                    <code className="font-mono text-xs font-semibold text-slate-900">{p.name}</code>
                    <span className="text-xs text-slate-500">{p.in}</span>
                    <TypeText parts={p.type} />
                    {p.required ? (
                      <span className="text-xs font-medium text-slate-700">required</span>
                    ) : (
                      <span className="text-xs text-slate-500">optional</span>
                    )}
                    {p.notes.length > 0 && <span className="text-xs text-slate-500">{p.notes.join(", ")}</span>}
                  </div>
                  {p.description && <p className="mt-0.5 text-slate-600">{p.description}</p>}
                </li>
              ))}
            </ul>
          </section>
        )}
        {operation.body && (
          <section>
            <Subheading>Body</Subheading>
            <p className="mb-2 text-xs text-slate-600">
              {operation.body.mediaTypes.map((type) => (
                <code key={type} className="mr-2 font-mono">
                  {type}
                </code>
              ))}
            </p>
            <FieldList fields={operation.body.fields} label={`Body of ${operation.method} ${operation.path}`} />
          </section>
        )}
        <section>
          <Subheading>Answers</Subheading>
          <ul
            aria-label={`Answers of ${operation.method} ${operation.path}`}
            className="divide-y divide-slate-100 rounded-lg border border-slate-200"
          >
            {operation.answers.map((answer) => (
              <li key={answer.status} className="flex flex-wrap items-baseline gap-x-3 gap-y-1 px-3 py-2">
                <span
                  className={`w-10 font-mono text-xs font-semibold ${Number(answer.status) < 400 ? "text-slate-900" : "text-slate-600"}`}
                >
                  {answer.status}
                </span>
                <span className="min-w-0 flex-1 text-slate-700">
                  {answer.description}
                  {answer.headers.length > 0 && (
                    <span className="text-slate-500"> Headers: {answer.headers.join(", ")}.</span>
                  )}
                </span>
                <span className="flex basis-full flex-col gap-0.5 sm:basis-auto sm:items-end">
                  {answer.media.map((m) => (
                    <span key={m.type} className="text-xs">
                      <code className="font-mono text-slate-500">{m.type}</code>{" "}
                      {m.schema.length > 0 && <TypeText parts={m.schema} />}
                    </span>
                  ))}
                </span>
              </li>
            ))}
          </ul>
        </section>
      </div>
    </details>
  );
}
