"use client";

// /password: a person changes their own password. The current one is required (better-auth checks
// it), the new one must meet the policy (lib/api/password-policy.ts, checked here as one types and
// again on the server), and every other session of theirs is signed out, so a password someone
// else knew no longer keeps them in anywhere.
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { FormAlert, TextField } from "@/components/ui/form-field";
import { PageHeader, Panel } from "@/components/ui/page-header";
import { PASSWORD_MIN_LENGTH, passwordProblem } from "@/lib/api/password-policy";

type Fields = Partial<Record<"current" | "password" | "confirm", string>>;

/** What better-auth's answer means for the person. */
function refusal(status: number, message: string | undefined): { form?: string; fields?: Fields } {
  if (status === 429) return { form: "Too many attempts. Wait a minute, then try again." };
  if (message && /invalid password|incorrect/i.test(message))
    return { fields: { current: "This is not your current password." } };
  if (message && /credential account/i.test(message))
    return { form: "You sign in with your company's identity: change your password there." };
  if (message?.startsWith("The new password is refused")) return { fields: { password: message } };
  return { form: `Changing the password failed (${status}). Try again shortly.` };
}

export function ChangePasswordPage() {
  const [pending, setPending] = useState(false);
  const [done, setDone] = useState(false);
  const [error, setError] = useState<string>();
  const [fields, setFields] = useState<Fields>({});
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const current = String(form.get("current") ?? "");
    const password = String(form.get("password") ?? "");
    const problem = passwordProblem(password);
    if (problem) return setFields({ password: `The new password is refused: ${problem}.` });
    if (password !== form.get("confirm")) return setFields({ confirm: "The two passwords differ." });
    setPending(true);
    setError(undefined);
    setFields({});
    try {
      const response = await fetch("/api/auth/change-password", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ currentPassword: current, newPassword: password }),
      });
      if (response.ok) {
        setDone(true);
        (event.target as HTMLFormElement).reset();
      } else {
        const body = (await response.json().catch(() => ({}))) as { message?: string };
        const why = refusal(response.status, body.message);
        setError(why.form);
        setFields(why.fields ?? {});
      }
    } catch {
      setError("Almanac could not be reached. Check the connection and try again.");
    }
    setPending(false);
  };
  return (
    <div>
      <PageHeader
        title="Your password"
        description="Changing your password signs you out everywhere else: other browsers and devices must sign in again with the new one."
      />
      <Panel className="max-w-lg">
        <form onSubmit={submit} className="space-y-4 p-5" onChange={() => setDone(false)}>
          <TextField
            label="Current password"
            name="current"
            type="password"
            autoComplete="current-password"
            required
            error={fields.current}
          />
          <TextField
            label="New password"
            name="password"
            type="password"
            autoComplete="new-password"
            minLength={PASSWORD_MIN_LENGTH}
            required
            hint={`At least ${PASSWORD_MIN_LENGTH} characters, not one of the most common passwords. A few words make a good one.`}
            error={fields.password}
          />
          <TextField
            label="New password again"
            name="confirm"
            type="password"
            autoComplete="new-password"
            required
            error={fields.confirm}
          />
          <FormAlert message={error} />
          {done && (
            <p
              role="status"
              className="rounded-md bg-green-50 px-3 py-2 text-sm text-green-800 ring-1 ring-inset ring-green-200"
            >
              Your password is changed; your other sessions are signed out.
            </p>
          )}
          <Button type="submit" variant="primary" disabled={pending}>
            {pending ? "Changing…" : "Change password"}
          </Button>
        </form>
      </Panel>
    </div>
  );
}
