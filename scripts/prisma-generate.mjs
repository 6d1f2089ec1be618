// Generates the Prisma client (lib/db/generated) from prisma/schema.prisma; run by `npm install`
// (postinstall) and by the build when the client is missing. Offline: the Prisma CLI would try
// to fetch its native schema engine, which generating does not need.
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const prismaCli = createRequire(import.meta.url).resolve("prisma/build/index.js");
const result = spawnSync(process.execPath, [prismaCli, "generate"], {
  cwd: root,
  stdio: ["ignore", "ignore", "inherit"],
  env: {
    ...process.env,
    PRISMA_SCHEMA_ENGINE_BINARY: "/bin/false",
    PRISMA_HIDE_UPDATE_MESSAGE: "1",
    CHECKPOINT_DISABLE: "1",
  },
});
if (result.status !== 0) {
  console.error("prisma generate failed");
  process.exit(result.status ?? 1);
}
