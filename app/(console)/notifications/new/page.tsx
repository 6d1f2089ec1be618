import type { Metadata } from "next";
import { NewSubscriptionPage } from "@/components/notifications/new-subscription-page";

export const metadata: Metadata = { title: "New subscription" };

// ?channel=email opens the form on e-mail; a webhook otherwise.
export default async function NewSubscription({ searchParams }: { searchParams: Promise<{ channel?: string }> }) {
  const { channel } = await searchParams;
  return <NewSubscriptionPage channel={channel === "email" ? "email" : "webhook"} />;
}
