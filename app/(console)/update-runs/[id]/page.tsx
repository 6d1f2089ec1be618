import type { Metadata } from "next";
import { UpdateRunPage } from "@/components/update-runs/update-run-page";

type Params = { id: string };

export const metadata: Metadata = { title: "Update run" };

export default async function UpdateRun({ params }: { params: Promise<Params> }) {
  const { id } = await params;
  return <UpdateRunPage id={id} />;
}
