"use client";

// Email and password, sent to better-auth; on success, on to the page the visitor was going to.
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { safeNext } from "@/lib/api/safe-next";
import { AuthField } from "./auth-card";

/** How long a 429 asks to wait (Retry-After, or better-auth's X-Retry-After: seconds), in words. */
function waitWords(retryAfter: string | null): string {
  const seconds = Number(retryAfter);
  if (!Number.isFinite(seconds) || seconds <= 0) return "a minute";
  if (seconds < 60) return `${Math.ceil(seconds)} second${Math.ceil(seconds) === 1 ? "" : "s"}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? "" : "s"}`;
}

/** `primary`: the main way in (no company sign-in beside it), so it takes the focus and the accent. */
export function SignInForm({ next, primary = true }: { next?: string; primary?: boolean }) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setError(null);
    try {
      const response = await fetch("/api/auth/sign-in/email", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: form.get("email"), password: form.get("password") }),
      });
      if (response.ok) {
        window.location.assign(safeNext(next));
        return;
      }
      setError(
        response.status === 429
          ? `Too many attempts. Wait ${waitWords(response.headers.get("retry-after") ?? response.headers.get("x-retry-after"))}, then try again.`
          : response.status === 401 || response.status === 400
            ? "The email address or the password is not right."
            : `Signing in failed (${response.status}). Try again shortly.`,
      );
    } catch {
      setError("Almanac could not be reached. Check the connection and try again.");
    }
    setPending(false);
  };
  return (
    <form onSubmit={submit} className="space-y-4" noValidate={false}>
      <AuthField label="Email" name="email" type="email" autoComplete="username" required autoFocus={primary} />
      <AuthField label="Password" name="password" type="password" autoComplete="current-password" required />
      {error && (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800 ring-1 ring-inset ring-red-200">
          {error}
        </p>
      )}
      <Button type="submit" variant={primary ? "primary" : "secondary"} className="w-full" disabled={pending}>
        {pending ? "Signing in…" : "Sign in"}
      </Button>
    </form>
  );
}
