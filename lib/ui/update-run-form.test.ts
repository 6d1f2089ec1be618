import { describe, expect, it } from "vitest";
import {
  draftToRequest,
  moveStage,
  newDraft,
  newStage,
  parseShootList,
  problemsByPart,
  stageFilterFromSearch,
  stageFilterQuery,
  draftWithFilter,
  targetChoices,
} from "./update-run-form.ts";

describe("parseShootList", () => {
  it("reads namespace/name entries a line, by commas or spaces, each once, and names the rest", () => {
    expect(parseShootList("garden-a/one\ngarden-b/two, garden-a/one  bad  x/y/z")).toEqual({
      shoots: [
        { namespace: "garden-a", name: "one" },
        { namespace: "garden-b", name: "two" },
      ],
      unreadable: ["bad", "x/y/z"],
    });
    expect(parseShootList("   ")).toEqual({ shoots: [], unreadable: [] });
  });
});

describe("draftToRequest", () => {
  it("sends the target, each stage's filter or list, soak and approval, and the gate in seconds", () => {
    const draft = {
      ...newDraft(),
      name: " roll 1.33 ",
      targetKind: "kubernetes" as const,
      kubernetes: "1.33",
      gate: true,
      gateValue: "2",
      gateUnit: "minutes" as const,
      stages: [
        { ...newStage(0), name: "canary", filter: { project: "dev", status: "", q: " web " } },
        {
          ...newStage(1),
          name: "prod",
          select: "shoots" as const,
          shoots: "garden-prod/api",
          when: "window" as const,
          soak: "1",
          soakUnit: "hours" as const,
          approval: true,
        },
      ],
    };
    expect(draftToRequest(draft, true)).toEqual({
      name: "roll 1.33",
      target: { kubernetes: "1.33" },
      stages: [
        { name: "canary", filter: { project: "dev", q: "web" }, when: "now" },
        {
          name: "prod",
          shoots: [{ namespace: "garden-prod", name: "api" }],
          when: "window",
          soakSeconds: 3600,
          approval: true,
        },
      ],
      healthGate: { healthySeconds: 120 },
      dryRun: true,
    });
  });
  it("sends maintain and a machine image as the contract names them, and no gate when it is off", () => {
    const maintain = draftToRequest({ ...newDraft(), name: "m" }, false);
    expect(maintain.target).toEqual({ action: "maintain" });
    expect(maintain).not.toHaveProperty("healthGate");
    expect(maintain).not.toHaveProperty("dryRun");
    const image = draftToRequest(
      { ...newDraft(), targetKind: "machineImage", imageName: "gardenlinux", imageVersion: "1592.3" },
      false,
    );
    expect(image.target).toEqual({ machineImage: { name: "gardenlinux", version: "1592.3" } });
  });
  it("passes a soak that is not a number on as typed, so the server names the field", () => {
    const draft = { ...newDraft(), stages: [{ ...newStage(0), soak: "soon" }] };
    expect(draftToRequest(draft, false).stages[0]).toHaveProperty("soakSeconds", "soon");
  });
});

describe("moveStage", () => {
  it("moves a stage up or down, and not past either end", () => {
    const [a, b, c] = [newStage(0), newStage(1), newStage(2)];
    expect(moveStage([a, b, c], 2, -1)).toEqual([a, c, b]);
    expect(moveStage([a, b, c], 0, 1)).toEqual([b, a, c]);
    const same = [a, b];
    expect(moveStage(same, 0, -1)).toBe(same);
    expect(moveStage(same, 1, 1)).toBe(same);
  });
});

describe("problemsByPart", () => {
  it("sorts the server's field problems to the run and to each stage", () => {
    expect(
      problemsByPart({
        name: "must not be empty",
        "target.kubernetes": "unknown version 1.99",
        "healthGate.healthySeconds": "out of range",
        "stages[1].filter": "selects no shoot",
        "stages[1].filter.project": "unknown project",
        "stages[0].soakSeconds": "out of range",
        "stages[2].shoots[0]": "is in stage 1 too",
        "stages[3]": "bad stage",
      }),
    ).toEqual({
      run: { name: "must not be empty", target: "unknown version 1.99", healthGate: "out of range" },
      stages: {
        0: { soakSeconds: "out of range" },
        1: { filter: "selects no shoot" },
        2: { shoots: "is in stage 1 too" },
        3: { stage: "bad stage" },
      },
    });
  });
});

describe("targetChoices", () => {
  const NOW = Date.parse("2026-11-27T12:00:00Z");
  const profile = (versions: object[], images: object[] = []) =>
    ({ spec: { kubernetes: { versions }, machineImages: images } }) as never;
  it("offers the usable versions newest first, their minors, and the images' usable versions", () => {
    const choices = targetChoices(
      [
        profile(
          [
            { version: "1.32.5", classification: "deprecated" },
            { version: "1.33.2", classification: "supported" },
            { version: "1.31.9", classification: "deprecated", expirationDate: "2026-01-01T00:00:00Z" },
            { version: "1.34.0", classification: "preview" },
          ],
          [{ name: "gardenlinux", versions: [{ version: "1592.3" }, { version: "1443.10" }] }],
        ),
        profile(
          [{ version: "1.32.5", classification: "supported" }],
          [{ name: "ubuntu", versions: [{ version: "24.4.1" }] }],
        ),
      ],
      NOW,
    );
    expect(choices.minors).toEqual(["1.34", "1.33", "1.32"]);
    expect(choices.versions).toEqual([
      { version: "1.34.0", classification: "preview" },
      { version: "1.33.2", classification: "supported" },
      { version: "1.32.5", classification: "supported" },
    ]);
    expect(choices.images).toEqual([
      { name: "gardenlinux", versions: ["1592.3", "1443.10"] },
      { name: "ubuntu", versions: ["24.4.1"] },
    ]);
  });
});

describe("stageFilterFromSearch", () => {
  it("reads a fleet page's query string as a stage's filter, dropping what the fleet page would drop", () => {
    const search = new URLSearchParams(
      "project=sandbox&status=healthy&q=scratch&sort=-name&expiringWithinDays=30&classification=bogus",
    );
    expect(stageFilterFromSearch(search)).toEqual({
      project: "sandbox",
      status: "healthy",
      q: "scratch",
      expiringWithinDays: "30",
    });
    expect(stageFilterFromSearch(new URLSearchParams("status=healthy,unhealthy"))).toEqual({});
    expect(draftWithFilter({ seed: "aws-eu1" }).stages[0]!.filter).toEqual({ seed: "aws-eu1" });
  });

  it("takes the fleet page's purposes and label selector, and the request carries them", () => {
    const filter = stageFilterFromSearch(
      new URLSearchParams("purpose=production,evaluation&labels=env%3Dprod,!legacy&project=sandbox"),
    );
    expect(filter).toEqual({ project: "sandbox", purpose: "production,evaluation", labels: "env=prod,!legacy" });
    expect(stageFilterQuery({ ...filter, labels: "  app in (a,b) " })).toEqual({
      project: "sandbox",
      purpose: "production,evaluation",
      labels: "app in (a,b)",
    });
  });
});
