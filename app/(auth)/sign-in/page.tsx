import type { Metadata } from "next";
import { AuthCard } from "@/components/auth/auth-card";
import { SignInForm } from "@/components/auth/sign-in-form";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string | string[] }> }) {
  const { next } = await searchParams;
  return (
    <AuthCard title="Sign in" intro="The lifecycle of your Gardener shoot clusters.">
      <SignInForm next={typeof next === "string" ? next : undefined} />
    </AuthCard>
  );
}
