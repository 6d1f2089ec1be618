// ESM because package.json has "type": "module".
// Telemetry is switched off in the npm scripts (NEXT_TELEMETRY_DISABLED=1): the machines are offline.

/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
};

export default nextConfig;
