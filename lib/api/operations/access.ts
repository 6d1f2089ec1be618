// Who calls, the accounts that may sign in, and the API tokens.
import { accountJsonSchema, accountListAnswerSchema, accountRolesSchema, createAccountSchema } from "../accounts.ts";
import { meAnswerSchema } from "../me.ts";
import { operation } from "../operation.ts";
import { apiTokenJsonSchema, createdTokenAnswerSchema, createTokenSchema, tokenListAnswerSchema } from "../tokens.ts";
import { admin, JSON_BODY } from "./common.ts";

export const whoAmI = operation({
  method: "get",
  path: "/api/v1/me",
  operationId: "whoAmI",
  tag: "Access",
  summary: "Who calls, and which roles they hold where",
  access: { need: "signed-in" },
  answers: [{ status: 200, description: "The caller.", json: meAnswerSchema }],
  problems: [],
});

export const listAccounts = operation({
  method: "get",
  path: "/api/v1/accounts",
  operationId: "listAccounts",
  tag: "Access",
  summary: "The people who may sign in, with their roles",
  access: admin,
  answers: [{ status: 200, description: "Every account.", json: accountListAnswerSchema }],
  problems: [],
});

export const createAccount = operation({
  method: "post",
  path: "/api/v1/accounts",
  operationId: "createAccount",
  tag: "Access",
  summary: "Make a built-in account with one role",
  access: admin,
  body: {
    schema: createAccountSchema,
    mediaTypes: JSON_BODY,
    invalid: "The account needs a name, an email address, a password, a role and a scope.",
  },
  answers: [{ status: 201, description: "The account.", json: accountJsonSchema }],
  problems: [400, 409, 413, 415, 422],
});

export const removeAccount = operation({
  method: "delete",
  path: "/api/v1/accounts/{id}",
  operationId: "removeAccount",
  tag: "Access",
  summary: "Remove an account",
  description: "The last landscape-wide admin cannot be removed.",
  access: admin,
  answers: [{ status: 200, description: "The account as it was.", json: accountJsonSchema }],
  problems: [404, 409],
});

export const setAccountRoles = operation({
  method: "put",
  path: "/api/v1/accounts/{id}/roles",
  operationId: "setAccountRoles",
  tag: "Access",
  summary: "Replace an account's roles",
  description: "The last landscape-wide admin keeps that role.",
  access: admin,
  body: { schema: accountRolesSchema, mediaTypes: JSON_BODY, invalid: "The roles are not valid." },
  answers: [{ status: 200, description: "The account with its new roles.", json: accountJsonSchema }],
  problems: [400, 404, 409, 413, 415, 422],
});

export const listTokens = operation({
  method: "get",
  path: "/api/v1/tokens",
  operationId: "listTokens",
  tag: "Access",
  summary: "The API tokens (without their values)",
  access: admin,
  answers: [{ status: 200, description: "Every token.", json: tokenListAnswerSchema }],
  problems: [],
});

export const createToken = operation({
  method: "post",
  path: "/api/v1/tokens",
  operationId: "createToken",
  tag: "Access",
  summary: "Make an API token",
  description: "The answer is the only place the token's value appears; Almanac keeps only its hash.",
  access: admin,
  body: {
    schema: createTokenSchema,
    mediaTypes: JSON_BODY,
    invalid: "The token needs a name, a role, a scope and an expiry (or null).",
  },
  answers: [
    {
      status: 201,
      description: "The token, with its value.",
      json: createdTokenAnswerSchema,
      headers: { "Cache-Control": "no-store" },
    },
  ],
  problems: [400, 409, 413, 415, 422],
});

export const revokeToken = operation({
  method: "delete",
  path: "/api/v1/tokens/{id}",
  operationId: "revokeToken",
  tag: "Access",
  summary: "Revoke an API token, at once",
  access: admin,
  answers: [{ status: 200, description: "The token as revoked.", json: apiTokenJsonSchema }],
  problems: [404],
});
