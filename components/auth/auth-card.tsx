// The frame of the sign-in and setup pages: the app's mark, a title, and the form below.
import type { ReactNode } from "react";

export function AuthCard({ title, intro, children }: { title: string; intro?: ReactNode; children: ReactNode }) {
  return (
    <main id="main" className="flex min-h-dvh items-center justify-center px-4 py-12">
      <div className="w-full max-w-sm">
        <div className="mb-6 flex items-center justify-center gap-2 text-lg font-semibold tracking-tight text-slate-900">
          <svg viewBox="0 0 32 32" aria-hidden="true" className="size-8 text-accent-600">
            <rect x="4" y="6" width="24" height="22" rx="4" fill="none" stroke="currentColor" strokeWidth="2.2" />
            <path d="M4 12h24M11 3v6M21 3v6" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />
            <circle cx="20" cy="20" r="3" fill="currentColor" />
          </svg>
          Almanac
        </div>
        <section className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm" aria-labelledby="auth-title">
          <h1 id="auth-title" className="text-lg font-semibold text-slate-900">
            {title}
          </h1>
          {intro && <div className="mt-1 text-sm text-slate-600">{intro}</div>}
          <div className="mt-5">{children}</div>
        </section>
      </div>
    </main>
  );
}

/** A labelled input with its own error line, for these small forms. */
export function AuthField({
  label,
  error,
  ...input
}: { label: string; error?: string } & React.InputHTMLAttributes<HTMLInputElement>) {
  const id = `field-${input.name}`;
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700">
        {label}
      </label>
      <input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className="w-full rounded-md border-0 bg-white px-3 py-2 text-sm shadow-sm ring-1 ring-inset ring-slate-300 placeholder:text-slate-400 focus:outline-2 focus:outline-offset-0 focus:outline-accent-600 aria-invalid:ring-red-500"
        {...input}
      />
      {error && (
        <p id={`${id}-error`} className="mt-1 text-xs text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
