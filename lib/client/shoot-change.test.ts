import { describe, expect, it } from "vitest";
import { RequestError } from "../ui/api.ts";
import type { Shoot } from "../ui/api-types.ts";
import { guardedPatch } from "./guarded-patch.ts";
import { EDIT_TRIES, sendEdit, type EditTransport, type ShootEdit } from "./shoot-change.ts";

const shoot = (resourceVersion: string, version: string) =>
  ({ metadata: { name: "dev", namespace: "garden-a", resourceVersion }, spec: { kubernetes: { version } } }) as Shoot;

const conflict = () => new RequestError(409, { title: "Conflict", detail: "The shoot was changed meanwhile." });

/** A garden that answers each PATCH in turn (a shoot, or an error thrown) and reads as `current`. */
function garden(answers: (Shoot | Error)[], current: () => Shoot) {
  const sent: unknown[] = [];
  let reads = 0;
  const transport: EditTransport = {
    patch: async (body) => {
      sent.push(body);
      const answer = answers.shift();
      if (!answer || answer instanceof Error) throw answer ?? new Error("no answer left");
      return answer;
    },
    read: async () => {
      reads++;
      return current();
    },
  };
  return { transport, sent, reads: () => reads };
}

// A Kubernetes update chosen on resourceVersion 7, from 1.30.11 to 1.30.14.
const update: ShootEdit<string> = {
  resourceVersion: "7",
  patch: (resourceVersion) => guardedPatch(resourceVersion, { kubernetes: { version: "1.30.14" } }),
  part: (s) => s.spec.kubernetes.version,
  base: "1.30.11",
  wanted: "1.30.14",
};

describe("sendEdit", () => {
  it("saves on the version the choice was made on, without reading the shoot", async () => {
    const g = garden([shoot("8", "1.30.14")], () => shoot("7", "1.30.11"));
    expect(await sendEdit(update, g.transport)).toEqual({ outcome: "saved", shoot: shoot("8", "1.30.14") });
    expect(g.sent).toEqual([{ metadata: { resourceVersion: "7" }, spec: { kubernetes: { version: "1.30.14" } } }]);
    expect(g.reads()).toBe(0);
  });

  it("after a 409 with its part unchanged (the status moved), sends it again on the current version", async () => {
    const g = garden([conflict(), shoot("10", "1.30.14")], () => shoot("9", "1.30.11"));
    expect(await sendEdit(update, g.transport)).toEqual({ outcome: "saved", shoot: shoot("10", "1.30.14") });
    expect(g.sent.map((b) => (b as { metadata: { resourceVersion: string } }).metadata.resourceVersion)).toEqual([
      "7",
      "9",
    ]);
  });

  it("after a 409 with the part as the change leaves it, reports it made by someone else and sends nothing more", async () => {
    const g = garden([conflict()], () => shoot("9", "1.30.14"));
    expect(await sendEdit(update, g.transport)).toEqual({ outcome: "applied", shoot: shoot("9", "1.30.14") });
    expect(g.sent).toHaveLength(1);
  });

  it("after a 409 with the part changed otherwise, hands back the current shoot and the 409, nothing saved", async () => {
    const refused = conflict();
    const g = garden([refused], () => shoot("9", "1.31.2"));
    expect(await sendEdit(update, g.transport)).toEqual({
      outcome: "superseded",
      current: shoot("9", "1.31.2"),
      conflict: refused,
    });
    expect(g.sent).toHaveLength(1);
  });

  it(`gives up after ${EDIT_TRIES} conflicts in a row, throwing the last 409`, async () => {
    const last = conflict();
    const g = garden([conflict(), conflict(), last], () => shoot("9", "1.30.11"));
    await expect(sendEdit(update, g.transport)).rejects.toBe(last);
    expect(g.sent).toHaveLength(EDIT_TRIES);
    expect(g.reads()).toBe(EDIT_TRIES - 1);
  });

  it("throws any other refusal as it is, without reading the shoot", async () => {
    const refused = new RequestError(422, {
      title: "Invalid",
      detail: "The version is not allowed.",
      errors: [{ field: "spec.kubernetes.version", type: "Invalid", detail: "expired" }],
    });
    const g = garden([refused], () => shoot("9", "1.30.11"));
    await expect(sendEdit(update, g.transport)).rejects.toBe(refused);
    expect(g.reads()).toBe(0);
  });
});
