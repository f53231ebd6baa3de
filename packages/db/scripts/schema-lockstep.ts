import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { SQLITE_SCHEMA } from "./migration-lockstep.ts";

const PACKAGE_DIR = fileURLToPath(new URL("..", import.meta.url));
export const POSTGRES_SCHEMA = "prisma/postgresql/schema.prisma";

/**
 * Fields that hold a global sequence: Int on SQLite (whose INTEGER is 64-bit already) and BigInt
 * on PostgreSQL (whose INTEGER is 32-bit). The only type difference the two schemas may have.
 */
export const SEQUENCE_FIELDS: ReadonlySet<string> = new Set([
  "sequence",
  "firstSequence",
  "lastSequence",
  "updatedSequence",
]);

export type PrismaField = { name: string; type: string; attributes: string };
export type PrismaModel = { fields: PrismaField[]; blockAttributes: string[] };

/** The `model` blocks of a Prisma schema: fields in order, with their attributes as written. */
export function parsePrismaModels(text: string): Map<string, PrismaModel> {
  const models = new Map<string, PrismaModel>();
  for (const match of text.matchAll(/^model\s+(\w+)\s*\{([\s\S]*?)^\}/gm)) {
    const [, name = "", body = ""] = match;
    const model: PrismaModel = { fields: [], blockAttributes: [] };
    for (const raw of body.split("\n")) {
      // A trailing `// comment` is not part of the field (no attribute here contains "//").
      const line = raw.replace(/\s\/\/.*$/, "").trim();
      if (line === "" || line.startsWith("//")) continue;
      if (line.startsWith("@@")) {
        model.blockAttributes.push(squash(line));
        continue;
      }
      const [field = "", type = "", ...attributes] = line.split(/\s+/);
      model.fields.push({ name: field, type, attributes: attributes.join(" ") });
    }
    models.set(name, model);
  }
  return models;
}

/**
 * Problems that make the PostgreSQL schema differ from the SQLite one: a model on one side only,
 * fields added, dropped, reordered, retyped or re-attributed, different indexes or keys.
 */
export function compareSchemas(sqliteText: string, postgresText: string): string[] {
  const sqlite = parsePrismaModels(sqliteText);
  const postgres = parsePrismaModels(postgresText);
  const problems: string[] = [];
  for (const name of new Set([...sqlite.keys(), ...postgres.keys()])) {
    const a = sqlite.get(name);
    const b = postgres.get(name);
    if (a === undefined || b === undefined) {
      problems.push(`model ${name} exists only in the ${a ? "SQLite" : "PostgreSQL"} schema`);
      continue;
    }
    const names = (model: PrismaModel) => model.fields.map((field) => field.name).join(", ");
    if (names(a) !== names(b)) {
      problems.push(`model ${name}: fields differ (SQLite: ${names(a)}; PostgreSQL: ${names(b)})`);
      continue;
    }
    a.fields.forEach((field, index) => {
      const twin = b.fields[index] as PrismaField;
      const expectedType =
        SEQUENCE_FIELDS.has(field.name) && field.type === "Int" ? "BigInt" : field.type;
      if (twin.type !== expectedType) {
        problems.push(
          `${name}.${field.name}: PostgreSQL type ${twin.type}, expected ${expectedType}`,
        );
      }
      if (squash(twin.attributes) !== squash(field.attributes)) {
        problems.push(
          `${name}.${field.name}: attributes differ (SQLite: ${field.attributes}; PostgreSQL: ${twin.attributes})`,
        );
      }
    });
    if (a.blockAttributes.join("\n") !== b.blockAttributes.join("\n")) {
      problems.push(`model ${name}: @@ attributes (keys, indexes, table name) differ`);
    }
  }
  return problems;
}

export function checkSchemaLockstep(): { problems: string[] } {
  const read = (file: string) => fs.readFileSync(path.join(PACKAGE_DIR, file), "utf8");
  return { problems: compareSchemas(read(SQLITE_SCHEMA), read(POSTGRES_SCHEMA)) };
}

function squash(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
