import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "../server/openapi-document.ts";
import {
  accessWords,
  fieldRows,
  type OpenApiDocument,
  referenceSections,
  schemaNotes,
  typeParts,
} from "./api-reference.ts";

const text = (parts: ReturnType<typeof typeParts>) =>
  parts.map((p) => ("text" in p ? p.text : `<${p.schema}>`)).join("");

describe("typeParts", () => {
  it("words types, lists, maps, nullables, enums and named schemas", () => {
    expect(text(typeParts({ type: ["string", "null"] }))).toBe("string or null");
    expect(text(typeParts({ type: "array", items: { $ref: "#/components/schemas/ShootRow" } }))).toBe(
      "list of <ShootRow>",
    );
    expect(text(typeParts({ type: "object", additionalProperties: { type: "integer" } }))).toBe("map of integer");
    expect(text(typeParts({ type: "string", enum: ["window", "reconcile"] }))).toBe('"window" | "reconcile"');
    expect(text(typeParts({ anyOf: [{ $ref: "#/components/schemas/Migration" }, { type: "null" }] }))).toBe(
      "<Migration> or null",
    );
    expect(text(typeParts({}))).toBe("any JSON");
  });
});

describe("schemaNotes", () => {
  it("words limits and defaults, leaving out the safe-integer bounds zod writes for every integer", () => {
    expect(schemaNotes({ type: "integer", minimum: 1, maximum: 500, default: 50 })).toEqual(["1 to 500", "default 50"]);
    expect(schemaNotes({ type: "integer", minimum: -9007199254740991, maximum: 9007199254740991 })).toEqual([]);
    expect(schemaNotes({ type: "string", maxLength: 200 })).toEqual(["at most 200 characters"]);
  });
});

describe("fieldRows", () => {
  it("lists an object's fields with nested objects and list items below them", () => {
    const rows = fieldRows({
      type: "object",
      properties: {
        name: { type: "string", description: "The shoot's name." },
        window: {
          anyOf: [{ type: "object", properties: { begin: { type: "string" } }, required: ["begin"] }, { type: "null" }],
        },
        workers: { type: "array", items: { type: "object", properties: { name: { type: "string" } } } },
      },
      required: ["name"],
    });
    expect(rows.map((r) => [r.path, r.depth, r.required])).toEqual([
      ["name", 0, true],
      ["window", 0, false],
      ["window.begin", 1, true],
      ["workers", 0, false],
      ["workers[].name", 1, false],
    ]);
    expect(rows[0].description).toBe("The shoot's name.");
  });
});

describe("referenceSections", () => {
  const document = buildOpenApiDocument() as unknown as OpenApiDocument;

  it("groups every operation of the document under its tag, in the tags' order", () => {
    const sections = referenceSections(document);
    expect(sections[0].tag).toBe("Shoots");
    const count = Object.values(document.paths).reduce((n, item) => n + Object.keys(item).length, 0);
    expect(sections.flatMap((s) => s.operations)).toHaveLength(count);
  });

  it("says for each operation who may call it, its parameters, body and answers", () => {
    const patch = referenceSections(document)
      .flatMap((s) => s.operations)
      .find((o) => o.id === "patchShoot")!;
    expect(patch.method).toBe("PATCH");
    expect(patch.access).toBe("operator on the project");
    expect(patch.parameters.map((p) => `${p.in} ${p.name}`)).toEqual([
      "path namespace",
      "path name",
      "header If-Match",
    ]);
    expect(patch.body?.mediaTypes).toEqual(["application/merge-patch+json", "application/json"]);
    expect(patch.body?.fields.map((f) => f.path)).toContain("spec.maintenance.timeWindow.begin");
    expect(patch.answers.map((a) => a.status)).toEqual([
      "200",
      "400",
      "401",
      "403",
      "404",
      "409",
      "413",
      "415",
      "422",
      "502",
      "503",
    ]);
    expect(patch.answers[0].media).toEqual([{ type: "application/json", schema: [{ schema: "Shoot" }] }]);
    expect(patch.answers[0].headers).toEqual(["ETag"]);
  });

  it("words each kind of access", () => {
    expect(accessWords({ role: "public" })).toBe("public");
    expect(accessWords({ role: "viewer", on: "any-project" })).toBe("viewer on any project");
    expect(accessWords({ role: "admin", on: "landscape" })).toBe("admin landscape-wide");
  });
});
