import { expect, test } from "vitest";
import { gardenIdentityOf } from "./garden-identity.ts";
import { ADMIN_TOKEN_PRINCIPAL, type Principal } from "./principal.ts";

const person = (extra: Partial<Extract<Principal, { kind: "user" }>>): Principal => ({
  kind: "user",
  id: "u1",
  name: "Ada",
  email: "ada@example.com",
  groups: ["team-a", "system:masters"],
  bindings: [],
  ...extra,
});

test("the admin token acts as Almanac itself", () => {
  expect(gardenIdentityOf(ADMIN_TOKEN_PRINCIPAL)).toEqual({ kind: "almanac" });
});

test("a person the company vouches for acts as themselves, without Kubernetes' own groups", () => {
  expect(gardenIdentityOf(person({ company: true }))).toEqual({
    kind: "person",
    user: "ada@example.com",
    groups: ["team-a"],
    userId: "u1",
  });
  expect(gardenIdentityOf(person({ company: true, via: "proxy" }))).toMatchObject({ user: "ada@example.com" });
});

test("a built-in account and an API token act under names only Almanac's RBAC bindings can grant", () => {
  expect(gardenIdentityOf(person({}))).toEqual({ kind: "person", user: "almanac:user:ada@example.com", groups: [] });
  expect(gardenIdentityOf({ kind: "token", id: "t", name: "ci", bindings: [] })).toEqual({
    kind: "person",
    user: "almanac:token:ci",
    groups: [],
  });
});
