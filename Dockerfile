# Almanac as a container: built in one stage, run from a second that holds the production build
# and production dependencies only, as an unprivileged user. Not built on the machines that made
# it (they run no container engine); CI lints it (tests/deploy/dockerfile.test.ts).

FROM node:24-bookworm-slim AS build
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1
COPY . .
# The lockfile is installed as it is (npm ci refuses lockfiles without every platform's packages);
# its postinstall generates the Prisma client.
RUN npm install --no-audit --no-fund
RUN npm run build && npm prune --omit=dev --no-audit --no-fund && touch .next/BUILD_ID

FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 PORT=3000 ALMANAC_DATA_DIR=/tmp/almanac
# BUILD_ID is touched last above: start.mjs sees the build as newer than every source and never
# rebuilds (it could not: the dev dependencies are gone).
COPY --from=build --chown=node:node /app /app
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "scripts/start.mjs"]
