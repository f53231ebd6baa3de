import {
  connectAdmin,
  TEST_DATABASE_URL,
  uniqueSchemaName,
} from "../../../../packages/db/test/support/test-database.ts";

export { connectAdmin, TEST_DATABASE_URL };

/**
 * A fresh schema in the test database for one test (several instances share it, as several API
 * servers share one database in production); `drop` removes it with everything in it.
 */
export async function scratchSchema(): Promise<{
  schema: string;
  url: string;
  drop(): Promise<void>;
}> {
  const schema = uniqueSchemaName("skein_api");
  const url = new URL(TEST_DATABASE_URL);
  url.searchParams.set("schema", schema);
  return {
    schema,
    url: url.toString(),
    async drop() {
      const admin = await connectAdmin();
      try {
        await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      } finally {
        await admin.end();
      }
    },
  };
}
