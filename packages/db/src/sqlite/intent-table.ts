import type { CommandIntent } from "../event-store.ts";
import { type IntentTable, intentJson } from "../store-base.ts";
import type { SqliteDatabase } from "./connection.ts";

type IntentRow = {
  command_id: string;
  procedure: string;
  payload_hash: string;
  data: string;
  created_at: string;
};

const COLUMNS = "command_id, procedure, payload_hash, data, created_at";

/** B3 intents on the writer connection (synchronous, so never inside a group commit). */
export class SqliteIntentTable implements IntentTable {
  constructor(private readonly db: SqliteDatabase) {}

  record(intent: Omit<CommandIntent, "createdAt">, createdAt: string): boolean {
    const { changes } = this.db
      .prepare(
        `INSERT INTO command_intents (${COLUMNS}) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (command_id) DO NOTHING`,
      )
      .run(intent.commandId, intent.procedure, intent.payloadHash, intentJson(intent), createdAt);
    return changes === 1;
  }

  find(commandId: string): CommandIntent | null {
    const row = this.db
      .prepare<[string], IntentRow>(`SELECT ${COLUMNS} FROM command_intents WHERE command_id = ?`)
      .get(commandId);
    return row ? toIntent(row) : null;
  }

  list(): CommandIntent[] {
    return this.db
      .prepare<[], IntentRow>(`SELECT ${COLUMNS} FROM command_intents ORDER BY created_at`)
      .all()
      .map(toIntent);
  }

  clear(commandId: string): void {
    this.db.prepare("DELETE FROM command_intents WHERE command_id = ?").run(commandId);
  }
}

function toIntent(row: IntentRow): CommandIntent {
  return {
    commandId: row.command_id,
    procedure: row.procedure,
    payloadHash: row.payload_hash,
    data: JSON.parse(row.data) as unknown,
    createdAt: row.created_at,
  };
}
