import type pg from "pg";
import { afterAll, afterEach, describe } from "vitest";
import { PROJECTION_TABLES } from "../../src/projection-tables.ts";
import { tempDir } from "./temp-dir.ts";
import {
  connectAdmin,
  openAt,
  STORE_KINDS,
  type StoreKind,
  type TestStore,
  type TestStoreOptions,
  uniqueSchemaName,
} from "./test-database.ts";

export type { StoreKind, TestStore, TestStoreOptions } from "./test-database.ts";

/**
 * How a parametrized suite gets its stores, so the same tests run on SQLite and PostgreSQL.
 * Every store a factory opens is closed after the test; every location is removed after it
 * (PostgreSQL schemas at the end of the file).
 */
export interface StoreFactory {
  readonly kind: StoreKind;
  /** A new, empty store nobody else uses. */
  fresh(options?: TestStoreOptions): Promise<TestStore>;
  /** A new, empty location that stores can open in turn (reopen) or at once (instances). */
  location(): string;
  open(location: string, options?: TestStoreOptions): Promise<TestStore>;
}

/** Runs `body` once per store kind, as `title [sqlite]` and `title [postgres]`. */
export function describeStores(title: string, body: (stores: StoreFactory) => void): void {
  for (const kind of STORE_KINDS) describe(`${title} [${kind}]`, () => body(factory(kind)));
}

/** A suite for PostgreSQL alone: what only it offers (instances sharing one database). */
export function describePostgres(title: string, body: (stores: StoreFactory) => void): void {
  describe(`${title} [postgres]`, () => body(factory("postgres")));
}

const opened: TestStore[] = [];
const factories = new Map<StoreKind, StoreFactory>();

function factory(kind: StoreKind): StoreFactory {
  let made = factories.get(kind);
  if (made === undefined) {
    made = kind === "sqlite" ? sqliteFactory() : postgresFactory();
    factories.set(kind, made);
  }
  return made;
}

function track(store: TestStore): TestStore {
  opened.push(store);
  return store;
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
  await schemas.afterEach();
});

afterAll(async () => {
  await schemas.afterAll();
});

function sqliteFactory(): StoreFactory {
  return {
    kind: "sqlite",
    fresh: async (options) => track(await openAt("sqlite", tempDir(), options)),
    location: () => tempDir(),
    open: async (location, options) => track(await openAt("sqlite", location, options)),
  };
}

function postgresFactory(): StoreFactory {
  return {
    kind: "postgres",
    fresh: async (options) => {
      // Migrating a new schema costs ~100 ms; property tests open hundreds of stores, so a
      // schema whose store was closed is emptied and handed out again instead.
      const schema = await schemas.reusable();
      const store = await openAt("postgres", schema, options);
      const close = store.close.bind(store);
      let recycled = false;
      return track(
        Object.assign(store, {
          close: async () => {
            await close();
            if (!recycled) schemas.release(schema);
            recycled = true;
          },
        }),
      );
    },
    location: () => schemas.create(),
    open: async (location, options) => {
      await schemas.connect();
      return track(await openAt("postgres", location, options));
    },
  };
}

/** Test schemas of this file: created on demand, emptied for reuse, dropped at the end. */
const schemas = new (class TestSchemas {
  private admin: Promise<pg.Client> | null = null;
  private readonly all: string[] = [];
  private readonly perTest: string[] = [];
  private readonly free: string[] = [];

  create(): string {
    const name = uniqueSchemaName();
    this.perTest.push(name);
    return name;
  }

  async reusable(): Promise<string> {
    const schema = this.free.pop();
    const client = await this.connect();
    if (schema === undefined) {
      const name = uniqueSchemaName();
      this.all.push(name);
      return name;
    }
    const tables = [
      "events",
      "streams",
      "command_receipts",
      "aggregate_snapshots",
      ...PROJECTION_TABLES,
    ];
    await client.query(tables.map((table) => `DELETE FROM "${schema}"."${table}";`).join("\n"));
    return schema;
  }

  release(schema: string): void {
    this.free.push(schema);
  }

  async afterEach(): Promise<void> {
    await this.drop(this.perTest.splice(0));
  }

  async afterAll(): Promise<void> {
    await this.drop(this.all.splice(0));
    this.free.length = 0;
    const admin = this.admin;
    this.admin = null;
    if (admin !== null) await (await admin).end();
  }

  /** The admin connection; its failure is the "PostgreSQL is not reachable" message. */
  connect(): Promise<pg.Client> {
    this.admin ??= connectAdmin();
    return this.admin;
  }

  private async drop(names: readonly string[]): Promise<void> {
    if (names.length === 0) return;
    const client = await this.connect();
    await client.query(names.map((name) => `DROP SCHEMA IF EXISTS "${name}" CASCADE;`).join("\n"));
  }
})();
