import { checkMigrationLockstep } from "./migration-lockstep.ts";
import { checkPostgresMigrationLockstep } from "./postgres-lockstep.ts";
import { checkSchemaLockstep } from "./schema-lockstep.ts";

// Three checks: SQLite migrations = its schema.prisma; the PostgreSQL schema.prisma has the same
// models as the SQLite one; PostgreSQL migrations = its schema.prisma (needs a PostgreSQL server,
// SKEIN_TEST_DATABASE_URL or the local one).
const checks = [
  { ok: "SQLite migrations match prisma/sqlite/schema.prisma", run: checkMigrationLockstep },
  { ok: "PostgreSQL and SQLite schemas declare the same models", run: checkSchemaLockstep },
  {
    ok: "PostgreSQL migrations match prisma/postgresql/schema.prisma",
    run: checkPostgresMigrationLockstep,
  },
];
let failed = false;
for (const check of checks) {
  const { problems } = await check.run();
  for (const problem of problems) console.error(`✗ ${problem}`);
  if (problems.length > 0) failed = true;
  else console.log(`✓ ${check.ok}`);
}
if (failed) process.exit(1);
