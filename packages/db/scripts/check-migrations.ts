import { checkMigrationLockstep } from "./migration-lockstep.ts";

const { problems } = checkMigrationLockstep();
if (problems.length > 0) {
  for (const problem of problems) console.error(`✗ ${problem}`);
  process.exit(1);
}
console.log("✓ SQLite migrations match prisma/sqlite/schema.prisma");
