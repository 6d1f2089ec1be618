// Writes the generated parts of docs/authorization.md (the role table and the refusal codes) from
// the code's tables: run it after changing lib/api/roles.ts or lib/http/refusal-answer.ts.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const { withGeneratedSections } = await import("../lib/http/authorization-doc.ts");
const file = path.resolve(import.meta.dirname, "..", "docs", "authorization.md");
writeFileSync(file, withGeneratedSections(readFileSync(file, "utf8")));
console.log(`wrote ${path.relative(process.cwd(), file)}`);
