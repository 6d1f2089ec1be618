// GET /api/v1/tokens: every API token, newest first, without its value (only a hash is kept).
import type { TokenListAnswer } from "../api/tokens.ts";
import type { Db } from "../db/client.ts";
import { listTokens as storedTokens } from "../store/api-tokens.ts";
import { tokenJson } from "./account-view.ts";

export async function listTokens(db: Db): Promise<TokenListAnswer> {
  return { items: (await storedTokens(db)).map(tokenJson) };
}
