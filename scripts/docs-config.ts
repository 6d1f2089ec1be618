// `npm run docs:config`: writes docs/configuration.md from the table of settings
// (lib/config/settings.ts). lib/config/configuration-doc.test.ts fails while the file differs.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { configurationDoc } from "../lib/config/configuration-doc.ts";

const file = path.resolve(import.meta.dirname, "../docs/configuration.md");
writeFileSync(file, configurationDoc());
console.log(`Wrote ${path.relative(process.cwd(), file)}.`);
