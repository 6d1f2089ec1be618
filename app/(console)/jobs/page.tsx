import type { Metadata } from "next";
import { FailedJobsPage } from "@/components/jobs/failed-jobs-page";

export const metadata: Metadata = { title: "Failed jobs" };

export default function Jobs() {
  return <FailedJobsPage />;
}
