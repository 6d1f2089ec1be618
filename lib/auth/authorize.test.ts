// authorize(): every role × permission × kind of place, the garden's own refusal and the garden not
// answering, with a fake garden-access port and project lookup (no database, no garden).
import { describe, expect, it } from "vitest";
import { Refusal } from "../api/refusal.ts";
import { authorize, type Need } from "./authorize.ts";
import { type GardenAccess, GardenUnavailableError } from "./garden-access.ts";
import type { Principal } from "./principal.ts";
import type { Permission, Role } from "./roles.ts";

/** Namespaces and their projects, as the mirror would have them. */
const PROJECTS: Record<string, string> = { "garden-dev": "dev", "garden-prod": "prod" };
const projectOf = (namespace: string) => PROJECTS[namespace];

/** A garden that lets read everything but the namespaces given; `asked` records each question. */
function fakeGarden(denied: readonly string[] = [], down = false) {
  const asked: string[] = [];
  const access: GardenAccess = {
    readableNamespaces: () => "all",
    mayRead: (_identity, namespace) => {
      asked.push(namespace);
      if (down)
        throw new GardenUnavailableError("The garden could not say what you may read: timed out. Try again shortly.");
      return !denied.includes(namespace);
    },
  };
  return { access, asked };
}

const token = (role: Role, scope: string): Principal => ({
  kind: "token",
  id: "t1",
  name: "ci",
  bindings: [{ role, scope }],
});
const nobody: Principal = { kind: "token", id: "t0", name: "ci", bindings: [] };

const ROLE_RANK: Record<Role, number> = { viewer: 0, operator: 1, admin: 2 };
const NEEDS: Record<Permission, Role> = { read: "viewer", operate: "operator", administer: "admin" };

/** The places a request may be about, and which project role reaches each (the landscape's always does). */
const PLACES: { name: string; need: Omit<Need, "need">; reachedBy: (scope: string) => boolean }[] = [
  { name: "a namespace of project dev", need: { namespace: "garden-dev" }, reachedBy: (s) => s === "dev" },
  { name: "a namespace of project prod", need: { namespace: "garden-prod" }, reachedBy: (s) => s === "prod" },
  { name: "a namespace in no project", need: { namespace: "garden-x" }, reachedBy: () => false },
  { name: "any project", need: { anyProject: true }, reachedBy: () => true },
  { name: "the whole landscape", need: {}, reachedBy: () => false },
];

describe("authorize", () => {
  const cases = (["viewer", "operator", "admin"] as const).flatMap((role) =>
    ["*", "dev"].flatMap((scope) =>
      (["read", "operate", "administer"] as const).flatMap((permission) =>
        PLACES.map((place) => ({ role, scope, permission, place })),
      ),
    ),
  );

  it.each(cases)("$role on $scope, $permission on $place.name", async ({ role, scope, permission, place }) => {
    const garden = fakeGarden();
    const result = await authorize(token(role, scope), { need: permission, ...place.need }, garden.access, projectOf);
    const reaches = ROLE_RANK[role] >= ROLE_RANK[NEEDS[permission]] && (scope === "*" || place.reachedBy(scope));
    expect(result.ok).toBe(reaches);
    if (!result.ok) {
      expect(result.refusal).toBeInstanceOf(Refusal);
      expect(result.refusal.code).toBe("forbidden");
      expect(result.refusal.message).toMatch(new RegExp(`this needs ${NEEDS[permission]}\\.$`));
    }
    // The garden is asked about a namespace only, and only once the roles allow it.
    expect(garden.asked).toEqual(reaches && place.need.namespace ? [place.need.namespace] : []);
  });

  it("answers the project of the namespace it checked", async () => {
    const { access } = fakeGarden();
    await expect(
      authorize(token("viewer", "*"), { need: "read", namespace: "garden-dev" }, access, projectOf),
    ).resolves.toEqual({ ok: true, project: "dev" });
    await expect(authorize(token("viewer", "*"), { need: "read" }, access, projectOf)).resolves.toEqual({ ok: true });
  });

  it("lets anyone signed in do what needs only that, without roles or the garden", async () => {
    const garden = fakeGarden(["garden-dev"], true);
    await expect(
      authorize(nobody, { need: "signed-in", namespace: "garden-dev" }, garden.access, projectOf),
    ).resolves.toEqual({ ok: true });
    expect(garden.asked).toEqual([]);
  });

  it("says what the caller holds where, and what is needed", async () => {
    const { access } = fakeGarden();
    const refusalOf = async (principal: Principal, need: Need) => {
      const result = await authorize(principal, need, access, projectOf);
      return result.ok ? undefined : result.refusal.message;
    };
    expect(await refusalOf(token("viewer", "dev"), { need: "operate", namespace: "garden-dev" })).toBe(
      'The token "ci" has the role viewer on project dev; this needs operator.',
    );
    expect(await refusalOf(token("admin", "dev"), { need: "administer" })).toBe(
      'The token "ci" has no role on the whole landscape; this needs admin.',
    );
    expect(await refusalOf(nobody, { need: "read", anyProject: true })).toBe(
      'The token "ci" has no role on the whole landscape; this needs viewer.',
    );
    const person: Principal = {
      kind: "user",
      id: "u1",
      name: "Bob",
      email: "bob@example.com",
      groups: [],
      bindings: [{ role: "operator", scope: "prod" }],
    };
    expect(await refusalOf(person, { need: "read", namespace: "garden-dev" })).toBe(
      "You have no role on project dev; this needs viewer.",
    );
  });

  it("refuses a namespace the garden does not let the caller read, saying what its RBAC checked", async () => {
    const garden = fakeGarden(["garden-prod"]);
    const result = await authorize(
      token("admin", "*"),
      { need: "read", namespace: "garden-prod" },
      garden.access,
      projectOf,
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.refusal.code).toBe("forbidden");
    expect(result.refusal.message).toBe(
      'The garden does not let the token "ci" (garden user almanac:token:ci) list shoots in namespace garden-prod (Kubernetes RBAC: verb list, resource shoots.core.gardener.cloud).',
    );
    expect(result.refusal.extensions).toEqual({
      rbac: { verb: "list", group: "core.gardener.cloud", resource: "shoots", namespace: "garden-prod" },
    });
    // The garden's RBAC narrows only reading a namespace: the landscape's lists are the fleet scope's.
    expect(
      (await authorize(token("admin", "*"), { need: "read", anyProject: true }, garden.access, projectOf)).ok,
    ).toBe(true);
  });

  it("fails closed when the garden cannot say: unavailable, never allowed", async () => {
    const garden = fakeGarden([], true);
    const result = await authorize(
      token("viewer", "*"),
      { need: "read", namespace: "garden-dev" },
      garden.access,
      projectOf,
    );
    expect(result).toMatchObject({ ok: false, refusal: { code: "unavailable", retryAfterSeconds: 5 } });
    // A need without a namespace does not ask the garden, so it does not depend on it.
    expect((await authorize(token("viewer", "*"), { need: "read" }, garden.access, projectOf)).ok).toBe(true);
  });

  it("lets a bug of the garden's port through rather than calling it a refusal", async () => {
    const access: GardenAccess = {
      readableNamespaces: () => "all",
      mayRead: () => {
        throw new TypeError("bug");
      },
    };
    await expect(
      authorize(token("viewer", "*"), { need: "read", namespace: "garden-dev" }, access, projectOf),
    ).rejects.toThrow(TypeError);
  });
});
