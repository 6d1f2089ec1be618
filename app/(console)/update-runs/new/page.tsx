import type { Metadata } from "next";
import { NewUpdateRunPage } from "@/components/update-runs/new-update-run-page";

export const metadata: Metadata = { title: "New update run" };

export default function NewUpdateRun() {
  return <NewUpdateRunPage />;
}
