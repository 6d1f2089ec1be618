"use client";

// The NamespacedCloudProfiles that extend a cloud profile (those of the projects the caller may
// read): a short line in the profile list, a panel on the profile's page.
import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { AlertTriangle, Layers } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Skeleton } from "@/components/ui/states";
import type { NamespacedCloudProfile } from "@/lib/gardener/types";
import { isResolved } from "@/lib/ui/namespaced-profile";
import { namespacedCloudProfilePage } from "@/lib/ui/page-links";
import { namespacedCloudProfilesQuery } from "@/lib/client/queries";

/** Those extending `parent`, by namespace and name. */
export function useNamespacedProfilesOf(parent: string) {
  return useQuery({
    ...namespacedCloudProfilesQuery,
    select: (answer) => answer.items.filter((p) => p.spec.parent?.name === parent),
  });
}

const key = (p: NamespacedCloudProfile) => `${p.metadata.namespace}/${p.metadata.name}`;

/** In the profile list: "Extended by" and the profiles' names, or nothing. */
export function NamespacedProfilesLine({ parent }: { parent: string }) {
  const { data } = useNamespacedProfilesOf(parent);
  if (!data || data.length === 0) return null;
  return (
    <div className="mt-1 text-xs text-slate-500">
      <Layers aria-hidden className="mr-1 inline size-3.5 align-[-2px]" />
      Extended by{" "}
      {data.map((p, i) => (
        <span key={key(p)}>
          {i > 0 && ", "}
          <Link
            href={namespacedCloudProfilePage(p.metadata.namespace ?? "", p.metadata.name)}
            className="font-medium text-accent-700 hover:underline"
          >
            {key(p)}
          </Link>
        </span>
      ))}
    </div>
  );
}

/** On the profile's page: each namespaced profile extending it, with what it names. */
export function NamespacedProfilesList({ parent }: { parent: string }) {
  const { data, error, isPending } = useNamespacedProfilesOf(parent);
  if (isPending) return <Skeleton className="h-10" />;
  if (error) return <p className="text-sm text-red-700">They could not be loaded: {(error as Error).message}</p>;
  if (data.length === 0)
    return (
      <p className="text-sm text-slate-600">
        No project you may read extends {parent} with a namespaced cloud profile of its own.
      </p>
    );
  return (
    <ul className="divide-y divide-slate-100">
      {data.map((p) => {
        const kubernetes = p.spec.kubernetes?.versions?.length ?? 0;
        const images = (p.spec.machineImages ?? []).reduce((n, m) => n + (m.versions?.length ?? 0), 0);
        return (
          <li key={key(p)} className="flex flex-wrap items-center justify-between gap-2 py-2">
            <div className="min-w-0">
              <Link
                href={namespacedCloudProfilePage(p.metadata.namespace ?? "", p.metadata.name)}
                className="font-medium text-slate-900 hover:text-accent-700 hover:underline"
              >
                {p.metadata.name}
              </Link>
              <span className="ml-2 text-xs text-slate-500">in {p.metadata.namespace}</span>
              <div className="text-xs text-slate-600">
                Names {kubernetes} Kubernetes {kubernetes === 1 ? "version" : "versions"} and {images} machine image{" "}
                {images === 1 ? "version" : "versions"} of its own
              </div>
            </div>
            {!isResolved(p) && (
              <Badge tone="amber" icon={<AlertTriangle aria-hidden className="size-3.5" />}>
                Not resolved by Gardener yet
              </Badge>
            )}
          </li>
        );
      })}
    </ul>
  );
}
