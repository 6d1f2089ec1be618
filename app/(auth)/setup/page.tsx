import type { Metadata } from "next";
import Link from "next/link";
import { AuthCard } from "@/components/auth/auth-card";
import { SetupForm } from "@/components/auth/setup-form";

export const metadata: Metadata = { title: "Set up Almanac" };

export default async function SetupPage({ searchParams }: { searchParams: Promise<{ token?: string | string[] }> }) {
  const { token } = await searchParams;
  if (typeof token !== "string" || token === "") {
    return (
      <AuthCard title="Set up Almanac">
        <p className="text-sm text-slate-700">
          This page needs the setup link that <code className="rounded bg-slate-100 px-1">npm start</code> prints while
          no account exists. Open that link, or{" "}
          <Link href="/sign-in" className="font-medium text-accent-700 underline">
            sign in
          </Link>
          .
        </p>
      </AuthCard>
    );
  }
  return (
    <AuthCard
      title="Create the first admin"
      intro="This account may do everything, including making accounts for others."
    >
      <SetupForm token={token} />
    </AuthCard>
  );
}
