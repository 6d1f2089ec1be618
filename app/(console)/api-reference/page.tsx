import type { Metadata } from "next";
import { ApiReferencePage } from "@/components/api-reference/api-reference-page";
import type { OpenApiDocument } from "@/lib/ui/api-reference";
import { openApiDocumentText } from "@/lib/server/openapi-document.ts";

export const metadata: Metadata = { title: "API reference" };

// The same document GET /api/v1/openapi.json serves, read in-process.
export default function ApiReference() {
  return <ApiReferencePage document={JSON.parse(openApiDocumentText().text) as OpenApiDocument} />;
}
