import type { Metadata } from "next";
import { CloudProfileDetail } from "@/components/cloudprofiles/cloud-profile-detail";

type Params = { name: string };

export async function generateMetadata({ params }: { params: Promise<Params> }): Promise<Metadata> {
  const { name } = await params;
  return { title: `Cloud profile ${name}` };
}

export default async function CloudProfilePage({ params }: { params: Promise<Params> }) {
  const { name } = await params;
  return <CloudProfileDetail name={name} />;
}
