import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { channelOfPath } from "@/lib/ui/notification-text";
import { SubscriptionPage } from "@/components/notifications/subscription-page";

type Params = { channel: string; id: string };

export const metadata: Metadata = { title: "Subscription" };

// /notifications/webhooks/{id} and /notifications/email-subscriptions/{id}, as the API names them.
export default async function Subscription({ params }: { params: Promise<Params> }) {
  const { channel, id } = await params;
  const which = channelOfPath(channel);
  if (!which) notFound();
  return <SubscriptionPage channel={which} id={id} />;
}
