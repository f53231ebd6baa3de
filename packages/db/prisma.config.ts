import os from "node:os";
import path from "node:path";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { defineConfig } from "prisma/config";

// Prisma 6.19's JS schema engine (WASM) through the better-sqlite3 adapter: no engine download,
// which the offline machines cannot do. The CLI is only used to diff the schema into SQL
// migrations, so the database it connects to is a throwaway scratch file.
const scratch = path.join(os.tmpdir(), "skein-prisma-scratch.db");

export default defineConfig({
  schema: "prisma/sqlite/schema.prisma",
  experimental: { adapter: true },
  engine: "js",
  adapter: async () => new PrismaBetterSQLite3({ url: `file:${scratch}` }),
});
