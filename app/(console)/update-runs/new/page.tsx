import type { Metadata } from "next";
import { NewUpdateRunPage } from "@/components/update-runs/new-update-run-page";
import { stageFilterFromSearch } from "@/lib/ui/update-run-form";

export const metadata: Metadata = { title: "New update run" };

type Search = Record<string, string | string[] | undefined>;

/** The fleet page's query string, if one is given, is the first stage's filter. */
export default async function NewUpdateRun({ searchParams }: { searchParams: Promise<Search> }) {
  const search = await searchParams;
  const params = new URLSearchParams(
    Object.entries(search).flatMap(([k, v]) => (typeof v === "string" ? [[k, v] as [string, string]] : [])),
  );
  return <NewUpdateRunPage initialFilter={stageFilterFromSearch(params)} />;
}
