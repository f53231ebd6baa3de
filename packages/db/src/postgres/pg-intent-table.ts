import type { CommandIntent } from "../event-store.ts";
import { type IntentTable, intentJson } from "../store-base.ts";
import type { PgPool } from "./connection.ts";

type IntentRow = {
  command_id: string;
  procedure: string;
  payload_hash: string;
  data: string;
  created_at: string;
};

const COLUMNS = "command_id, procedure, payload_hash, data, created_at";

/** B3 intents, one statement each through the pool. */
export class PgIntentTable implements IntentTable {
  constructor(private readonly pool: PgPool) {}

  async record(intent: Omit<CommandIntent, "createdAt">, createdAt: string): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `INSERT INTO command_intents (${COLUMNS}) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (command_id) DO NOTHING`,
      [intent.commandId, intent.procedure, intent.payloadHash, intentJson(intent), createdAt],
    );
    return rowCount === 1;
  }

  async find(commandId: string): Promise<CommandIntent | null> {
    const { rows } = await this.pool.query<IntentRow>(
      `SELECT ${COLUMNS} FROM command_intents WHERE command_id = $1`,
      [commandId],
    );
    return rows[0] ? toIntent(rows[0]) : null;
  }

  async list(): Promise<CommandIntent[]> {
    const { rows } = await this.pool.query<IntentRow>(
      `SELECT ${COLUMNS} FROM command_intents ORDER BY created_at`,
    );
    return rows.map(toIntent);
  }

  async clear(commandId: string): Promise<void> {
    await this.pool.query("DELETE FROM command_intents WHERE command_id = $1", [commandId]);
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
