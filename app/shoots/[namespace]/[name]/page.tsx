import type { Metadata } from "next";
import { ShootLifecycle } from "@/components/shoot/shoot-lifecycle";

type Params = { namespace: string; name: string };

export async function generateMetadata({ params }: { params: Promise<Params> }): Promise<Metadata> {
  const { namespace, name } = await params;
  return { title: `${name} (${namespace})` };
}

export default async function ShootPage({ params }: { params: Promise<Params> }) {
  const { namespace, name } = await params;
  return <ShootLifecycle namespace={namespace} name={name} />;
}
