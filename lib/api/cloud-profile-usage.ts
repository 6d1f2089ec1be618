// GET /api/v1/cloudprofiles/{name}/usage: what the fleet runs of one cloud profile, counted (for
// what the caller may read). The cloud profile page shows these beside each version.
import { z } from "zod";
import { component } from "./components.ts";
import { describes } from "./schema-agreement.ts";

export interface CloudProfileUsageAnswer {
  readonly shoots: number;
  /** Shoots per Kubernetes version, in the control plane or any pool (a shoot once per version). */
  readonly kubernetes: Readonly<Record<string, number>>;
  /** Worker pools that set each Kubernetes version themselves. */
  readonly kubernetesPools: Readonly<Record<string, number>>;
  /** Worker pools per machine image and version, keyed `name@version` (the name in lower case). */
  readonly images: Readonly<Record<string, number>>;
  /** Shoots per machine image and version (a shoot with two pools on it counts once). */
  readonly imageShoots: Readonly<Record<string, number>>;
  /**
   * The sets of Kubernetes versions shoots run (control plane and pools), with how many shoots
   * run exactly that set: the shoots on any of several versions are the sum over the sets that
   * hold one of them.
   */
  readonly kubernetesSets: readonly { readonly versions: readonly string[]; readonly shoots: number }[];
}

const perKey = z.record(z.string(), z.int());

export const cloudProfileUsageSchema = describes<CloudProfileUsageAnswer>()(
  component(
    "CloudProfileUsage",
    z.object({
      shoots: z.int().meta({ description: "Shoots on the profile." }),
      kubernetes: perKey.meta({ description: "Shoots per Kubernetes version (control plane or any pool)." }),
      kubernetesPools: perKey.meta({ description: "Worker pools that set each Kubernetes version themselves." }),
      images: perKey.meta({ description: 'Worker pools per machine image and version, keyed "name@version".' }),
      imageShoots: perKey.meta({ description: "Shoots per machine image and version." }),
      kubernetesSets: z
        .array(z.object({ versions: z.array(z.string()), shoots: z.int() }))
        .meta({ description: "The sets of Kubernetes versions shoots run, with how many run each." }),
    }),
  ),
);
