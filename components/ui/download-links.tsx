// Download links of an export: CSV and JSON of what the page shows, every row (not one page).
import { Download } from "lucide-react";
import type { ExportFormat } from "@/lib/api/export";

const LINK =
  "inline-flex items-center gap-1.5 rounded-md bg-white px-3 py-1.5 text-sm font-medium text-slate-800 shadow-sm ring-1 ring-inset ring-slate-300 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-600";

export function DownloadLinks({ what, url }: { what: string; url: (format: ExportFormat) => string }) {
  return (
    <div role="group" aria-label={`Download ${what}`} className="flex flex-wrap items-center gap-2">
      {(["csv", "json"] as const).map((format) => (
        <a
          key={format}
          href={url(format)}
          download
          className={LINK}
          aria-label={`Download ${what} as ${format.toUpperCase()}`}
        >
          <Download aria-hidden className="size-4" />
          {format.toUpperCase()}
        </a>
      ))}
    </div>
  );
}

export const LINK_BUTTON = LINK;
