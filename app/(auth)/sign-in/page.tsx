import type { Metadata } from "next";
import { AuthCard } from "@/components/auth/auth-card";
import { CompanySignIn } from "@/components/auth/company-sign-in";
import { SignInForm } from "@/components/auth/sign-in-form";
import { oidcConfig } from "@/lib/auth/oidc-config";

export const metadata: Metadata = { title: "Sign in" };

/** better-auth's error codes when the issuer's answer could not be used, in words. */
const OIDC_FAILURES: Record<string, string> = {
  access_denied: "was cancelled or refused at the company sign-in.",
  signup_disabled: "is not allowed to make an account here.",
  email_not_found: "gave no email address; the issuer must send the email claim.",
  account_not_linked:
    "found an Almanac account with this email, but the issuer does not vouch for the address (email_verified), so they were not joined. Sign in with the account's password, or ask an admin.",
};

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<{ next?: string | string[]; failed?: string | string[]; error?: string | string[] }>;
}) {
  const { next, failed, error } = await searchParams;
  const nextPath = typeof next === "string" ? next : undefined;
  const oidc = oidcConfig();
  const code = typeof error === "string" ? error : "";
  return (
    <AuthCard title="Sign in" intro="The lifecycle of your Gardener shoot clusters.">
      {failed === "oidc" && (
        <p
          role="alert"
          className="mb-4 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800 ring-1 ring-inset ring-red-200"
        >
          Signing in with {oidc?.displayName ?? "the company identity"}{" "}
          {OIDC_FAILURES[code] ?? "failed. Try again, or ask an admin."}
        </p>
      )}
      {oidc && (
        <>
          <CompanySignIn providerName={oidc.displayName} next={nextPath} />
          <div className="my-5 flex items-center gap-3 text-xs text-slate-500" aria-hidden="true">
            <span className="h-px flex-1 bg-slate-200" />
            or with an Almanac account
            <span className="h-px flex-1 bg-slate-200" />
          </div>
        </>
      )}
      <SignInForm next={nextPath} primary={!oidc} />
    </AuthCard>
  );
}
