import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { appendCounter, inc, readTables, rebuild, stateOf } from "./support/counter-model.ts";
import { describeStores, type StoreKind } from "./support/store-factory.ts";

const PACKAGE_DIR = fileURLToPath(new URL("..", import.meta.url));
const WRITER = fileURLToPath(new URL("./fixtures/crash-writer.ts", import.meta.url));

/** Runs the writer until it has acknowledged `acks` appends, then SIGKILLs it mid-stream. */
async function runAndKill(
  kind: StoreKind,
  location: string,
  acks: number,
): Promise<Map<string, number>> {
  const child = spawn(process.execPath, ["--import", "tsx", WRITER, kind, location], {
    cwd: PACKAGE_DIR,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const acknowledged = new Map<string, number>();
  let stderr = "";
  let partial = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  child.stdout.on("data", (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) {
      const [, commandId, sequence] = line.split(" ");
      if (commandId !== undefined) acknowledged.set(commandId, Number(sequence));
    }
    if (acknowledged.size >= acks) child.kill("SIGKILL");
  });
  const { code, signal } = await new Promise<{ code: number | null; signal: string | null }>(
    (resolve) => child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  if (signal !== "SIGKILL") throw new Error(`writer exited on its own (${code}): ${stderr}`);
  return acknowledged;
}

describeStores("crash safety", (stores) => {
  it("every append that resolved before SIGKILL is there after reopen, projections agree", async () => {
    const location = stores.location();
    const acknowledged = await runAndKill(stores.kind, location, 1500);
    expect(acknowledged.size).toBeGreaterThanOrEqual(1500);

    const store = await stores.open(location);
    try {
      const log = await store.readAll(0);
      expect(log.map((e) => e.sequence)).toEqual(log.map((_, i) => i + 1));
      const lastByCommand = new Map<string, number>();
      for (const event of log) {
        if (event.commandId !== null) lastByCommand.set(event.commandId, event.sequence);
      }
      for (const [commandId, sequence] of acknowledged) {
        expect(lastByCommand.get(commandId), commandId).toBe(sequence);
      }
      expect(await readTables(store)).toEqual(rebuild(log));

      // The store keeps working where the writer left off.
      const before = stateOf(await store.readStream("counter-0"));
      const next = await appendCounter(store, "counter-0", [inc(1)], { commandId: "after-crash" });
      expect(next).toMatchObject({ streamVersion: before.version + 1, duplicate: false });
      expect(await readTables(store)).toEqual(rebuild(await store.readAll(0)));
    } finally {
      await store.close();
    }
  });
});
