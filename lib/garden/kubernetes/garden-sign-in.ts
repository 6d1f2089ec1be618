// Whether Almanac can sign in to its live garden, for /readyz and the start: its token file can
// be read, the garden did not refuse its credentials (HTTP 401 on the last call with them), and the
// API server serves Gardener's API at all (an in-cluster pod of gardener-operator's runtime
// cluster reaches the runtime cluster, not the virtual garden). The garden is asked (discovery of
// core.gardener.cloud/v1beta1) at most once a minute, and only then; every other call's 401 counts
// at once. A garden that does not answer is no reason to be unready: the mirror keeps serving what
// it has and catches up.
import { ApiException, CustomObjectsApi, Observable } from "@kubernetes/client-node";
import type { GardenKubeConfig } from "./garden-kubeconfig.ts";
import { TokenFileError } from "./token-file.ts";

export interface SignInCheck {
  readonly ok: boolean;
  readonly detail: string;
}

export type GardenAnswer = "serves" | "refused" | "not-a-garden" | "unreachable";

const GROUP = "core.gardener.cloud";
const VERSION = "v1beta1";

/** Asks the garden's discovery for core.gardener.cloud with Almanac's own credentials. */
export async function askGarden(kubeConfig: GardenKubeConfig, timeoutMs = 5_000): Promise<GardenAnswer> {
  try {
    await kubeConfig.makeApiClient(CustomObjectsApi).getAPIResources(
      { group: GROUP, version: VERSION },
      {
        middleware: [
          {
            pre: (context) => {
              context.setSignal(AbortSignal.timeout(timeoutMs));
              return new Observable(Promise.resolve(context));
            },
            post: (response) => new Observable(Promise.resolve(response)),
          },
        ],
        middlewareMergeStrategy: "append",
      },
    );
    return "serves";
  } catch (error) {
    if (error instanceof TokenFileError) throw error;
    if (error instanceof ApiException && error.code === 401) return "refused";
    if (error instanceof ApiException && error.code === 404) return "not-a-garden";
    return "unreachable";
  }
}

/** Who Almanac signs in as, in words: the token file, or the kubeconfig's user. */
export function credentialsName(kubeConfig: GardenKubeConfig, source: string): string {
  const file = kubeConfig.tokenFile();
  return file ? `the token in ${file.path}` : `the credentials of ${source}`;
}

export const NOT_A_GARDEN = (server: string) =>
  `the API server ${server} does not serve ${GROUP}: it is not a Gardener garden (with gardener-operator, the pod's own cluster is the runtime cluster; reach the virtual garden with a token kubeconfig, GARDEN_KUBECONFIG, as the README's "A live garden" describes)`;

/** A check that says whether Almanac can sign in, asking the garden at most every `askEveryMs`. */
export function gardenSignInCheck(
  kubeConfig: GardenKubeConfig,
  source: string,
  options: { readonly askEveryMs?: number; readonly now?: () => number } = {},
): () => Promise<SignInCheck> {
  const askEveryMs = options.askEveryMs ?? 60_000;
  const now = options.now ?? Date.now;
  let askedAt = -Infinity;
  let lastAnswer: GardenAnswer | undefined;
  let asking: Promise<GardenAnswer> | undefined;
  const server = kubeConfig.getCurrentCluster()?.server ?? "";
  return async () => {
    try {
      kubeConfig.tokenFile()?.token();
      if (now() - askedAt >= askEveryMs) {
        askedAt = now();
        asking ??= askGarden(kubeConfig).finally(() => (asking = undefined));
        lastAnswer = await asking;
      }
    } catch (error) {
      if (error instanceof TokenFileError) return { ok: false, detail: error.message };
      throw error;
    }
    if (kubeConfig.credentialsRefused())
      return {
        ok: false,
        detail: `the garden refuses ${credentialsName(kubeConfig, source)} (HTTP 401 Unauthorized)`,
      };
    if (lastAnswer === "not-a-garden") return { ok: false, detail: NOT_A_GARDEN(server) };
    return { ok: true, detail: lastAnswer === "unreachable" ? "not answering (the mirror retries)" : "signed in" };
  };
}
