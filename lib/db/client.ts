// The Prisma client (on node-postgres through @prisma/adapter-pg: no native query engine).
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/client.ts";

export type Db = PrismaClient;
/** What a use case receives inside `db.$transaction(async (tx) => ...)`. */
export type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];
/** Either: reads work inside and outside transactions. */
export type Queryable = Tx | Db;

export function createDb(url: string, poolSize = 10): Db {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: url, max: poolSize }) });
}

const holder = globalThis as { almanacDb?: Db };

/** The server's one client, on DATABASE_URL (set by scripts/start.mjs before Next starts). */
export function db(): Db {
  if (!holder.almanacDb) {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error("DATABASE_URL is not set: start Almanac with `npm start`, which provides the database.");
    holder.almanacDb = createDb(url);
  }
  return holder.almanacDb;
}
