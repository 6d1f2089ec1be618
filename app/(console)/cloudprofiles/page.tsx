import type { Metadata } from "next";
import { CloudProfileList } from "@/components/cloudprofiles/cloud-profile-list";

export const metadata: Metadata = { title: "Cloud profiles" };

export default function CloudProfilesPage() {
  return <CloudProfileList />;
}
