"use client";

// The first admin: a name, an email address and a password, made with the setup link's token;
// then signed in straight away.
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { createFirstAdmin } from "@/lib/api/operations/upkeep";
import { RequestError } from "@/lib/ui/api";
import { call } from "@/lib/ui/call";
import { AuthField } from "./auth-card";

const PASSWORD_MIN = 12;

export function SetupForm({ token }: { token: string }) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const body = {
      token,
      name: String(form.get("name") ?? ""),
      email: String(form.get("email") ?? ""),
      password: String(form.get("password") ?? ""),
    };
    if (body.password !== form.get("confirm")) {
      setFieldErrors({ confirm: "The two passwords differ." });
      return;
    }
    setPending(true);
    setError(null);
    setFieldErrors({});
    try {
      await call(createFirstAdmin, { body });
      const signIn = await fetch("/api/auth/sign-in/email", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: body.email, password: body.password }),
      });
      window.location.assign(signIn.ok ? "/shoots" : "/sign-in");
      return;
    } catch (e) {
      if (e instanceof RequestError) {
        setFieldErrors(Object.fromEntries(e.errors.map((f) => [f.field.replace(/^body\./, ""), f.detail])));
        setError(e.errors.length > 0 ? "Some fields need another look." : e.message);
      } else {
        setError("Almanac could not be reached. Check the connection and try again.");
      }
    }
    setPending(false);
  };
  return (
    <form onSubmit={submit} className="space-y-4">
      <AuthField label="Your name" name="name" autoComplete="name" required autoFocus error={fieldErrors.name} />
      <AuthField label="Email" name="email" type="email" autoComplete="username" required error={fieldErrors.email} />
      <AuthField
        label={`Password (at least ${PASSWORD_MIN} characters)`}
        name="password"
        type="password"
        autoComplete="new-password"
        minLength={PASSWORD_MIN}
        required
        error={fieldErrors.password}
      />
      <AuthField
        label="Password again"
        name="confirm"
        type="password"
        autoComplete="new-password"
        required
        error={fieldErrors.confirm}
      />
      {error && (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800 ring-1 ring-inset ring-red-200">
          {error}
        </p>
      )}
      <Button type="submit" variant="primary" className="w-full" disabled={pending}>
        {pending ? "Creating the admin…" : "Create the first admin"}
      </Button>
    </form>
  );
}
