import type { EventStore, RawLogReader } from "@skein/db";
import type { RunId, ThreadId } from "@skein/domain";
import { createSkeinClient, type SkeinClient } from "../../src/client.ts";
import { createSilentLogger } from "../../src/logger.ts";
import type { OrchestratorCommands } from "@skein/contract";
import { startServer } from "../../src/server.ts";
import { WEB_ORIGIN } from "./test-server.ts";

type Frame = { rawEventId: string; method: string | null };
type Message = { id: string; data: { type: "frames"; logged: boolean; frames: Frame[] } };

/** What one `events.watchRaw` subscription delivered, as the client saw it. */
export type RawWatch = {
  /** Every frame id received, in order, over all messages. */
  readonly ids: string[];
  readonly frames: Frame[];
  /** The tracked id of the last message (the cursor a resume passes). */
  readonly lastId: string | null;
  readonly messages: number;
  readonly complete: boolean;
  readonly errors: unknown[];
  until(check: () => boolean, ms: number, what: string): Promise<void>;
  stop(): void;
};

/** A real HTTP server over a harness's orchestrator, store and raw log, with a client. */
export async function serveHarness(x: {
  orchestrator: OrchestratorCommands;
  store: EventStore;
  rawLog: RawLogReader;
}): Promise<{ client: SkeinClient; close(): Promise<void> }> {
  const server = await startServer({
    orchestrator: x.orchestrator,
    store: x.store,
    rawLog: x.rawLog,
    host: "127.0.0.1",
    port: 0,
    webOrigins: [WEB_ORIGIN],
    apiToken: null,
    log: createSilentLogger(),
    shutdownGraceMs: 1_000,
  });
  return { client: createSkeinClient({ url: server.url }), close: () => server.close() };
}

export function watchRaw(
  client: SkeinClient,
  input: { threadId: ThreadId; runId: RunId; lastEventId?: string },
): RawWatch {
  const frames: Frame[] = [];
  const errors: unknown[] = [];
  let lastId: string | null = null;
  let messages = 0;
  let complete = false;
  const sub = client.events.watchRaw.subscribe(input, {
    onData: (message: Message) => {
      messages += 1;
      lastId = message.id;
      frames.push(...message.data.frames);
    },
    onError: (error: unknown) => errors.push(error),
    onComplete: () => {
      complete = true;
    },
  });
  return {
    get ids() {
      return frames.map((f) => f.rawEventId);
    },
    frames,
    get lastId() {
      return lastId;
    },
    get messages() {
      return messages;
    },
    get complete() {
      return complete;
    },
    errors,
    async until(check, ms, what) {
      const deadline = Date.now() + ms;
      while (!check()) {
        if (errors.length > 0) throw errors[0];
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    stop: () => sub.unsubscribe(),
  };
}
