import type { Metadata } from "next";
import { UpdateRunsPage } from "@/components/update-runs/update-runs-page";

export const metadata: Metadata = { title: "Update runs" };

export default function UpdateRuns() {
  return <UpdateRunsPage />;
}
