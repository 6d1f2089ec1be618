import { ApiException } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { gardenRefusal, type GardenRequest, neverSent } from "./garden-refusal.ts";

const request: GardenRequest = { verb: "patch", resource: "shoots", yours: "7", current: 7, ownCredentials: false };
const status = (code: number, reason: string, message: string, causes?: object[]) =>
  new ApiException(
    code,
    `HTTP-Code: ${code}`,
    JSON.stringify({
      kind: "Status",
      apiVersion: "v1",
      status: "Failure",
      message,
      reason,
      code,
      ...(causes ? { details: { causes } } : {}),
    }),
    {},
  );

describe("gardenRefusal", () => {
  it("reads 409 as Stale and 404 as NotFound", () => {
    expect(gardenRefusal(status(409, "Conflict", "the object has been modified"), request)).toEqual({
      code: "Stale",
      yours: "7",
      current: 7,
    });
    expect(gardenRefusal(status(404, "NotFound", 'shoots "x" not found'), request)).toEqual({ code: "NotFound" });
  });

  it("tells RBAC's 403 from Gardener's and a webhook's", () => {
    const rbac = 'shoots.core.gardener.cloud "x" is forbidden: User "eve" cannot patch resource "shoots"';
    expect(gardenRefusal(status(403, "Forbidden", rbac), request)).toEqual({
      code: "GardenForbidden",
      verb: "patch",
      resource: "shoots",
      message: rbac,
    });
    const confirmation =
      'shoots.core.gardener.cloud "x" is forbidden: must have a "confirmation.gardener.cloud/deletion" annotation to delete';
    expect(gardenRefusal(status(403, "Forbidden", confirmation), request)).toMatchObject({
      code: "GardenRefused",
      status: 403,
      message: confirmation,
    });
  });

  it("keeps the garden's field causes, and reads a failed JSON patch test as Stale", () => {
    const invalid = status(
      422,
      "Invalid",
      'Shoot.core.gardener.cloud "x" is invalid: spec.seedName: field is immutable',
      [{ reason: "FieldValueInvalid", field: "spec.seedName", message: 'Invalid value: "b": field is immutable' }],
    );
    expect(gardenRefusal(invalid, request)).toEqual({
      code: "GardenRefused",
      status: 422,
      reason: "Invalid",
      message: 'Shoot.core.gardener.cloud "x" is invalid: spec.seedName: field is immutable',
      problems: [{ field: "spec.seedName", type: "Invalid", detail: 'Invalid value: "b": field is immutable' }],
    });
    const test = status(422, "Invalid", "the server rejected our request due to an error in our request", [
      {
        reason: "UnexpectedServerResponse",
        message: "testing value /spec/provider/workers/1/name failed: test failed",
      },
    ]);
    expect(gardenRefusal(test, request)).toMatchObject({ code: "Stale" });
    // evanphx/json-patch when the pool is gone, or moved past the list's end.
    const missing = status(422, "Invalid", "the server rejected our request due to an error in our request", [
      {
        reason: "UnexpectedServerResponse",
        message: "test operation does not apply: is missing path: /spec/provider/workers/3/name: missing value",
      },
    ]);
    expect(gardenRefusal(missing, request)).toEqual({ code: "Stale", yours: "7", current: 7 });
  });

  it("reads gardener-apiserver's 500 for a binding to the seed the shoot is on already as a refusal of the move", () => {
    const sameSeed = status(
      500,
      "InternalError",
      "Internal error occurred: update of binding rejected, shoot is already assigned to the same seed",
    );
    expect(gardenRefusal(sameSeed, { ...request, resource: "shoots/binding", destination: "seed-2" })).toEqual({
      code: "MigrationRefused",
      destination: "seed-2",
      refusals: [
        {
          field: "spec.seedName",
          type: "Invalid",
          detail: "Internal error occurred: update of binding rejected, shoot is already assigned to the same seed",
        },
      ],
    });
  });

  it("tells whose credentials a 401 refused, and a garden that did not answer from a bug", () => {
    const unauthorized = new ApiException(401, "Unauthorized", "", {});
    expect(gardenRefusal(unauthorized, request)).toMatchObject({ code: "GardenCredentialsRefused" });
    expect(gardenRefusal(unauthorized, { ...request, ownCredentials: true })).toMatchObject({ code: "SignInAgain" });
    expect(gardenRefusal(status(500, "InternalError", "etcd is down"), request)).toEqual({
      code: "GardenUnavailable",
      message: "(HTTP 500: etcd is down)",
    });
    const refused = new TypeError("fetch failed", {
      cause: Object.assign(new Error("connect"), { code: "ECONNREFUSED" }),
    });
    expect(gardenRefusal(refused, request)).toEqual({ code: "GardenUnavailable", message: "(ECONNREFUSED: connect)" });
    expect(gardenRefusal(new TypeError("x is not a function"), request)).toBeUndefined();
  });

  it("tells a request that never reached the garden from one that may have been applied", () => {
    const refused = new TypeError("fetch failed", {
      cause: Object.assign(new Error("connect"), { code: "ECONNREFUSED" }),
    });
    expect(neverSent(refused)).toBe(true);
    const reset = new TypeError("fetch failed", { cause: Object.assign(new Error("socket"), { code: "ECONNRESET" }) });
    expect(neverSent(reset)).toBe(false);
    expect(neverSent(Object.assign(new Error("timed out"), { name: "TimeoutError" }))).toBe(false);
  });
});
