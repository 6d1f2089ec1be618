"use client";

// Sign-in with the company's identity (OIDC): better-auth answers with the issuer's address, the
// browser goes there, and the issuer sends the person back to `next` (or to the sign-in page with
// an error).
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { safeNext } from "@/lib/api/safe-next";

export function CompanySignIn({ providerName, next }: { providerName: string; next?: string }) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const start = async () => {
    setPending(true);
    setError(null);
    const back = safeNext(next);
    try {
      const response = await fetch("/api/auth/sign-in/social", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          provider: "oidc",
          callbackURL: back,
          errorCallbackURL: `/sign-in?${new URLSearchParams({ next: back, failed: "oidc" })}`,
        }),
      });
      const body = (await response.json().catch(() => ({}))) as { url?: unknown };
      if (response.ok && typeof body.url === "string") {
        window.location.assign(body.url);
        return;
      }
      setError(
        response.status === 429
          ? "Too many attempts. Wait a minute, then try again."
          : `${providerName} cannot be reached from Almanac (${response.status}). Try again shortly, or ask an admin.`,
      );
    } catch {
      setError("Almanac could not be reached. Check the connection and try again.");
    }
    setPending(false);
  };
  return (
    <div className="space-y-2">
      <Button variant="primary" className="w-full" onClick={start} disabled={pending}>
        {pending ? `Going to ${providerName}…` : `Sign in with ${providerName}`}
      </Button>
      {error && (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800 ring-1 ring-inset ring-red-200">
          {error}
        </p>
      )}
    </div>
  );
}
