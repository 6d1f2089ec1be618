import type { Metadata } from "next";
import { NamespacedProfileDetail } from "@/components/cloudprofiles/namespaced-profile-detail";

type Params = { namespace: string; name: string };

export async function generateMetadata({ params }: { params: Promise<Params> }): Promise<Metadata> {
  const { namespace, name } = await params;
  return { title: `Namespaced cloud profile ${namespace}/${name}` };
}

export default async function NamespacedCloudProfilePage({ params }: { params: Promise<Params> }) {
  const { namespace, name } = await params;
  return <NamespacedProfileDetail namespace={namespace} name={name} />;
}
