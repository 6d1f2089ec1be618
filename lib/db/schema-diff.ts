// The SQL that takes the database from what prisma/migrations creates to what schema.prisma
// describes, computed by Prisma's own schema engine (its WebAssembly build, since the native one
// cannot be fetched here). Empty means the two agree. Used by `npm run db:diff` and by a test.
// Needs a PostgreSQL server: the engine replays the migrations in a shadow database.
import { PrismaPg } from "@prisma/adapter-pg";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import pg from "pg";
import { MIGRATIONS_DIR, readMigrations } from "./migrate.ts";

export const SCHEMA_PATH = path.resolve(import.meta.dirname, "../../prisma/schema.prisma");

interface EngineModule {
  __wbg_set_wasm(exports: unknown): void;
  SchemaEngine: {
    new: (
      options: { datamodels: [string, string][] },
      log: (message: string) => void,
      adapter: object,
    ) => Promise<{
      diff(params: object): Promise<{ exitCode: number; stdout: string | null }>;
      free(): void;
    }>;
  };
}

let lastPanic = "";
let engineModule: Promise<EngineModule> | undefined;

/** The WebAssembly module is instantiated once per process (it keeps global state). */
function loadEngine(): Promise<EngineModule> {
  engineModule ??= instantiateEngine();
  return engineModule;
}

async function instantiateEngine(): Promise<EngineModule> {
  // The engine reports a Rust panic's message here before it aborts.
  (globalThis as Record<string, unknown>).PRISMA_WASM_PANIC_REGISTRY = { set_message: (m: string) => (lastPanic = m) };
  const glueFile = createRequire(import.meta.url).resolve("@prisma/schema-engine-wasm/schema_engine_bg");
  const dir = path.dirname(glueFile);
  const glue = (await import(glueFile)) as EngineModule;
  const { instance } = await WebAssembly.instantiate(readFileSync(path.join(dir, "schema_engine_bg.wasm")), {
    "./schema_engine_bg.js": glue as unknown as WebAssembly.ModuleImports,
  });
  glue.__wbg_set_wasm(instance.exports);
  (instance.exports.__wbindgen_start as () => void)();
  return glue;
}

type QueryResult = { fields: { dataTypeID: number }[] };
type Adapter = {
  executeScript(script: string): Promise<void>;
  performIO(query: object): Promise<QueryResult>;
  queryRaw(query: object): Promise<{ columnTypes: number[] }>;
  underlyingDriver(): pg.Pool;
  dispose(): Promise<void>;
};

const PG_CHAR = 18;
const PG_TEXT = 25;
const COLUMN_TYPE_CHARACTER = 6; // ColumnTypeEnum.Character of @prisma/driver-adapter-utils

/**
 * Works around two adapter-pg 7.10 bugs the engine runs into: it splits scripts on every ";"
 * (breaking function bodies), so send them whole; and it rejects the one-byte "char" type of the
 * catalog columns the engine reads, so hand those over as the Character column type.
 */
function patched(adapter: Adapter): Adapter {
  adapter.executeScript = async (script) => {
    await adapter.underlyingDriver().query(script);
  };
  const charColumns = new WeakMap<object, number[]>();
  const performIO = adapter.performIO.bind(adapter);
  adapter.performIO = async (query) => {
    const result = await performIO(query);
    const found: number[] = [];
    result.fields.forEach((field, i) => {
      if (field.dataTypeID === PG_CHAR) {
        field.dataTypeID = PG_TEXT;
        found.push(i);
      }
    });
    charColumns.set(query, found);
    return result;
  };
  const queryRaw = adapter.queryRaw.bind(adapter);
  adapter.queryRaw = async (query) => {
    const result = await queryRaw(query);
    for (const i of charColumns.get(query) ?? []) result.columnTypes[i] = COLUMN_TYPE_CHARACTER;
    return result;
  };
  return adapter;
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/**
 * The adapter factory the engine drives (bound below into the result-returning shape it calls).
 * adapter-pg 7.10's own shadow database keeps using the main database (its connection string
 * wins over the `database` option); this one really connects to the shadow database it creates,
 * and drops it afterwards.
 */
function diffAdapterFactory(url: string) {
  const adminQuery = async (sql: string) => {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(sql);
    } finally {
      await admin.end();
    }
  };
  return {
    provider: "postgres",
    adapterName: "@prisma/adapter-pg",
    connect: async () => patched((await new PrismaPg({ connectionString: url }).connect()) as unknown as Adapter),
    connectToShadowDb: async () => {
      const name = `almanac_shadow_${crypto.randomUUID().replaceAll("-", "")}`;
      await adminQuery(`CREATE DATABASE "${name}"`);
      const adapter = patched(
        (await new PrismaPg({ connectionString: withDatabase(url, name) }).connect()) as unknown as Adapter,
      );
      const dispose = adapter.dispose.bind(adapter);
      adapter.dispose = async () => {
        await dispose();
        await adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      };
      return adapter;
    },
  };
}

/**
 * SQL from the migrations folder's end state to schema.prisma. `serverUrl` is any database on a
 * server where the user may create databases (the diff itself touches only a shadow database).
 */
export async function diffMigrationsToSchema(
  serverUrl: string,
  migrationsDir = MIGRATIONS_DIR,
  schemaPath = SCHEMA_PATH,
): Promise<string> {
  const engineModule = await loadEngine();
  const schema = readFileSync(schemaPath, "utf8");
  const logs: string[] = [];
  const engine = await engineModule.SchemaEngine.new(
    { datamodels: [[schemaPath, schema]] },
    (message: string) => logs.push(message),
    bindMigrationAwareSqlAdapterFactory(diffAdapterFactory(serverUrl) as never),
  );
  lastPanic = "";
  try {
    const migrations = readMigrations(migrationsDir);
    const from =
      migrations.length === 0
        ? { tag: "empty" }
        : {
            tag: "migrations",
            baseDir: migrationsDir,
            lockfile: { path: "migration_lock.toml", content: 'provider = "postgresql"\n' },
            shadowDbInitScript: "",
            migrationDirectories: migrations.map((m) => ({
              path: m.name,
              migrationFile: { path: "migration.sql", content: { tag: "ok", value: m.sql } },
            })),
          };
    const result = await engine.diff({
      from,
      to: { tag: "schemaDatamodel", files: [{ path: schemaPath, content: schema }] },
      script: true,
      exitCode: null,
      filters: { externalTables: [], externalEnums: [] },
    });
    const sql = result.stdout ?? "";
    // An empty diff is reported as a comment only.
    return sql.replace(/^-- This is an empty migration\.\s*$/m, "").trim();
  } catch (error) {
    throw lastPanic ? new Error(`Prisma's schema engine failed: ${lastPanic}`) : error;
  } finally {
    engine.free();
  }
}
