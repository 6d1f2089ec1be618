// How the journeys and the browser benchmarks start Chromium: Debian's build, because these
// machines cannot fetch Playwright's own, with flags that keep it from reaching out to Google's
// services.
export const DEBIAN_CHROMIUM = {
  executablePath: "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-quic",
  ],
};
