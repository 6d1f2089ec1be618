// /api-reference: the API described by its own OpenAPI document, as a page. Grouped by tag; each
// operation opens onto who may call it, its parameters, body and answers; the named schemas
// follow, each field with its type and limits. Rendered on the server from the document itself,
// so the page and /api/v1/openapi.json cannot disagree.
import { Download } from "lucide-react";
import { PageHeader } from "@/components/ui/page-header";
import { fieldRows, type OpenApiDocument, referenceSections } from "@/lib/ui/api-reference";
import { FieldList } from "./field-list";
import { OperationCard } from "./operation-card";

const DOCUMENT_PATH = "/api/v1/openapi.json";
const anchor = (tag: string) => `tag-${tag.toLowerCase().replace(/\W+/g, "-")}`;

export function ApiReferencePage({ document }: { document: OpenApiDocument }) {
  const sections = referenceSections(document);
  const schemas = Object.entries(document.components.schemas).sort(([a], [b]) => a.localeCompare(b));
  return (
    <div>
      <PageHeader
        title="API reference"
        description={
          <>
            Every operation of <code className="font-mono">/api/v1</code>, from its OpenAPI {document.openapi} document.
            Call it with <code className="font-mono">Authorization: Bearer</code> and an API token, or from a signed-in
            browser. Errors are <code className="font-mono">application/problem+json</code> with a request id.
          </>
        }
        actions={
          <a
            href={DOCUMENT_PATH}
            download="almanac-openapi.json"
            className="inline-flex items-center gap-1.5 rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-700 shadow-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-accent-600"
          >
            <Download aria-hidden="true" className="size-4" />
            openapi.json
          </a>
        }
      />
      <div className="grid gap-8 lg:grid-cols-[14rem_minmax(0,1fr)]">
        <nav aria-label="API sections" className="lg:sticky lg:top-20 lg:self-start">
          <ul className="flex flex-wrap gap-2 text-sm lg:flex-col lg:gap-0.5">
            {sections.map((s) => (
              <li key={s.tag}>
                <a
                  href={`#${anchor(s.tag)}`}
                  className="block rounded-md border border-slate-200 px-2.5 py-1 text-slate-700 hover:bg-slate-100 hover:text-slate-900 lg:border-0"
                >
                  {s.tag} <span className="text-slate-500">({s.operations.length})</span>
                </a>
              </li>
            ))}
            <li>
              <a
                href="#schemas"
                className="block rounded-md border border-slate-200 px-2.5 py-1 text-slate-700 hover:bg-slate-100 hover:text-slate-900 lg:border-0"
              >
                Schemas <span className="text-slate-500">({schemas.length})</span>
              </a>
            </li>
          </ul>
        </nav>
        <div className="min-w-0 space-y-10">
          {sections.map((section) => (
            <section key={section.tag} aria-labelledby={anchor(section.tag)}>
              <h2 id={anchor(section.tag)} className="scroll-mt-20 text-lg font-semibold text-slate-900">
                {section.tag}
              </h2>
              {section.description && <p className="mt-0.5 text-sm text-slate-600">{section.description}</p>}
              <div className="mt-3 space-y-2">
                {section.operations.map((operation) => (
                  <OperationCard key={operation.id} operation={operation} />
                ))}
              </div>
            </section>
          ))}
          <section aria-labelledby="schemas">
            <h2 id="schemas" className="scroll-mt-20 text-lg font-semibold text-slate-900">
              Schemas
            </h2>
            <p className="mt-0.5 text-sm text-slate-600">
              The answers&apos; named shapes. Objects hold exactly the fields listed, unless they are the garden&apos;s
              own (Shoot, CloudProfile, Seed, Project), which hold more.
            </p>
            <div className="mt-3 space-y-2">
              {schemas.map(([name, schema]) => (
                <section
                  key={name}
                  id={`schema-${name}`}
                  aria-labelledby={`schema-${name}-title`}
                  className="scroll-mt-20 rounded-xl border border-slate-200 bg-white shadow-sm target:ring-2 target:ring-accent-500"
                >
                  <header className="flex flex-wrap items-baseline gap-x-3 px-4 py-2.5">
                    <h3 id={`schema-${name}-title`} className="font-mono text-sm font-semibold text-slate-900">
                      {name}
                    </h3>
                    {schema.description && <p className="min-w-0 text-sm text-slate-600">{schema.description}</p>}
                  </header>
                  <div className="border-t border-slate-100 px-4 py-3">
                    <FieldList fields={fieldRows(schema)} label={`Fields of ${name}`} />
                  </div>
                </section>
              ))}
            </div>
          </section>
        </div>
      </div>
    </div>
  );
}
