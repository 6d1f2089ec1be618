const topics = [
  { name: "Versions", detail: "Kubernetes and machine-image versions, and how they are classified." },
  { name: "Expiry", detail: "Which versions expire, when, and what the next window will force." },
  { name: "Maintenance windows", detail: "When each cluster is maintained, in local time and UTC." },
  { name: "Health", detail: "The status of every shoot, and what needs attention now." },
];

function Logo() {
  // An almanac page: a calendar sheet with a marked day.
  return (
    <svg viewBox="0 0 32 32" aria-hidden="true" className="size-10 text-accent-600 dark:text-accent-500">
      <rect x="4" y="6" width="24" height="22" rx="4" fill="none" stroke="currentColor" strokeWidth="2" />
      <path d="M4 12h24M11 3v6M21 3v6" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      <circle cx="20" cy="20" r="3" fill="currentColor" />
    </svg>
  );
}

export default function StartPage() {
  return (
    <main className="mx-auto flex min-h-dvh max-w-3xl flex-col justify-center px-6 py-16">
      <div className="flex items-center gap-3">
        <Logo />
        <h1 className="text-4xl font-semibold tracking-tight">Almanac</h1>
      </div>
      <p className="mt-4 max-w-2xl text-lg text-slate-600 dark:text-slate-400">
        The lifecycle of your Gardener shoot clusters: versions, expiry, maintenance windows, health.
      </p>

      <ul className="mt-12 grid gap-4 sm:grid-cols-2">
        {topics.map((topic) => (
          <li
            key={topic.name}
            className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-800 dark:bg-slate-900"
          >
            <h2 className="font-medium">{topic.name}</h2>
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{topic.detail}</p>
          </li>
        ))}
      </ul>
    </main>
  );
}
