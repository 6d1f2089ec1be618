// ALMANAC_DASHBOARD_URL: the Gardener dashboard's address (https://dashboard.garden.example.com);
// the shoot page then links each cluster to its page there. Unset, or not an http(s) URL: no link.

export function gardenerDashboardBase(env: Record<string, string | undefined> = process.env): string | undefined {
  const value = env.ALMANAC_DASHBOARD_URL?.trim();
  if (!value) return undefined;
  try {
    const url = new URL(value);
    if (url.protocol !== "https:" && url.protocol !== "http:") return undefined;
    return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
  } catch {
    return undefined;
  }
}
