// Reads Gardener objects from YAML (multi-document) or JSON text. A document may be a `List`
// with `items`. Every object remembers where it came from, so errors can name file and line.
import { LineCounter, parseAllDocuments } from "yaml";

export interface SourcedObject {
  readonly object: Record<string, unknown>;
  readonly file: string;
  /** 1-based line where the document starts. */
  readonly line: number;
}

export class InputError extends Error {}

/** Parses the text of one file; `file` is used in messages only. */
export function readObjects(text: string, file: string): SourcedObject[] {
  const lineCounter = new LineCounter();
  const docs = parseAllDocuments(text, { lineCounter, uniqueKeys: false });
  const out: SourcedObject[] = [];
  for (const doc of Array.isArray(docs) ? docs : [docs]) {
    const problem = doc.errors[0];
    if (problem) {
      const pos = lineCounter.linePos(problem.pos[0]);
      // yaml's message repeats the position ("... at line 4, column 9:") before a code frame.
      const firstLine = problem.message.split("\n")[0].replace(/ at line \d+, column \d+:?$/, "");
      throw new InputError(`${file}:${pos.line}:${pos.col}: invalid YAML or JSON: ${firstLine}`);
    }
    let value: unknown;
    try {
      value = doc.toJS({ maxAliasCount: 1000 });
    } catch (error) {
      // yaml refuses alias expansions past the limit ("billion laughs") with a ReferenceError.
      const start = doc.contents?.range ? lineCounter.linePos(doc.contents.range[0]).line : 1;
      throw new InputError(`${file}:${start}: invalid YAML: ${(error as Error).message}`);
    }
    if (value === null || value === undefined) continue; // an empty document
    const line = doc.contents?.range ? lineCounter.linePos(doc.contents.range[0]).line : 1;
    if (typeof value !== "object" || Array.isArray(value)) {
      throw new InputError(
        `${file}:${line}: expected a Kubernetes object (a mapping with kind and metadata), found ${Array.isArray(value) ? "a list" : typeof value}`,
      );
    }
    const object = value as Record<string, unknown>;
    if (typeof object.kind === "string" && object.kind.endsWith("List") && Array.isArray(object.items)) {
      object.items.forEach((item, i) => {
        if (item === null || typeof item !== "object" || Array.isArray(item)) {
          throw new InputError(`${file}:${line}: items[${i}] of the ${object.kind} is not an object`);
        }
        out.push({ object: item as Record<string, unknown>, file, line });
      });
    } else {
      out.push({ object, file, line });
    }
  }
  return out;
}
