import {
  ConflictError,
  createSequentialIds,
  type ProviderSessionId,
  type ProviderTurnId,
  type ThreadId,
} from "@skein/domain";
import type { RuntimeEvent } from "@skein/domain/provider";
import { describe, expect, it } from "vitest";
import type { AggregateRepository } from "../commands/aggregate-repository.ts";
import { TurnConsumer } from "./turn-consumer.ts";

type Command = Parameters<AggregateRepository["execute"]>[0];

/** Records each append (one entry per commit) by its commands' types; refuses `refuse` types. */
function recordingRepo(refuse: string | null = null) {
  const appends: string[][] = [];
  const attempt = async (commands: readonly Command[]) => {
    if (commands.some((command) => command.type === refuse)) {
      throw new ConflictError(`${refuse} refused`);
    }
    appends.push(commands.map((command) => command.type));
    return { events: [], sequence: appends.length, receipt: null, duplicate: false };
  };
  return {
    appends,
    repo: {
      execute: (command: Command) => attempt([command]),
      executeBatch: (commands: readonly Command[]) => attempt(commands),
    } as unknown as Pick<AggregateRepository, "execute" | "executeBatch">,
  };
}

function consumerOn(
  repo: Pick<AggregateRepository, "execute" | "executeBatch">,
  onRequest: () => void = () => {},
) {
  return new TurnConsumer(
    repo,
    createSequentialIds(),
    "thread-1" as ThreadId,
    "pturn-1" as ProviderTurnId,
    "psession-1" as ProviderSessionId,
    onRequest,
  );
}

const message: RuntimeEvent[] = [
  { type: "item.started", itemRef: "m1", kind: "assistant_message", fields: {} },
  { type: "item.delta", itemRef: "m1", field: "text", delta: "hello" },
  {
    type: "item.completed",
    itemRef: "m1",
    kind: "assistant_message",
    status: "completed",
    fields: { text: "hello" },
  },
];
const end: RuntimeEvent = { type: "turn.completed", nativeTurnRef: null, status: "completed" };
/** The turn's start, with the provider's frame it came in (E18). */
const started: RuntimeEvent = { type: "turn.started", nativeTurnRef: null, rawEventId: "raw-1" };

/** Yields `first`, waits `pauseMs`, then yields `then` (a provider that pauses mid-turn). */
async function* paced(first: RuntimeEvent[], pauseMs: number, then: RuntimeEvent[]) {
  yield* first;
  await new Promise((resolve) => setTimeout(resolve, pauseMs));
  yield* then;
}

describe("TurnConsumer: a turn's events in as few appends as they arrive in", () => {
  it("events that arrive together, the turn's end included, are one append", async () => {
    const { repo, appends } = recordingRepo();
    const outcome = await consumerOn(repo).consume(paced([...message, end], 0, []));
    expect(outcome).toEqual({ status: "completed" });
    expect(appends).toEqual([
      ["StartItem", "AppendItemDelta", "CompleteItem", "CompleteProviderTurn"],
    ]);
  });

  it("a pause in the provider's stream appends what came before it, before the rest arrives", async () => {
    const { repo, appends } = recordingRepo();
    const [started, delta, completed] = message;
    const outcome = await consumerOn(repo).consume(
      paced([started!, delta!], 200, [completed!, end]),
    );
    expect(outcome).toEqual({ status: "completed" });
    expect(appends).toEqual([
      ["StartItem", "AppendItemDelta"],
      ["CompleteItem", "CompleteProviderTurn"],
    ]);
  });

  it("E18: the turn's link to its starting frame waits for the next append, however long the agent works", async () => {
    const { repo, appends } = recordingRepo();
    const outcome = await consumerOn(repo).consume(paced([started], 200, [...message, end]));
    expect(outcome).toEqual({ status: "completed" });
    expect(appends).toEqual([
      [
        "RecordProviderTurnFrame",
        "StartItem",
        "AppendItemDelta",
        "CompleteItem",
        "CompleteProviderTurn",
      ],
    ]);
  });

  it("E18: held with the link, the turn's next events still go out after a pause", async () => {
    const { repo, appends } = recordingRepo();
    const [item, delta, completed] = message;
    const outcome = await consumerOn(repo).consume(
      paced([started, item!, delta!], 200, [completed!, end]),
    );
    expect(outcome).toEqual({ status: "completed" });
    expect(appends).toEqual([
      ["RecordProviderTurnFrame", "StartItem", "AppendItemDelta"],
      ["CompleteItem", "CompleteProviderTurn"],
    ]);
  });

  it("a refused command: those before it are recorded, and the turn ends failed as it did one by one", async () => {
    const { repo, appends } = recordingRepo("CompleteItem");
    const outcome = await consumerOn(repo).consume(paced([...message, end], 0, []));
    expect(outcome.status).toBe("failed");
    expect(outcome.failure?.message).toContain("CompleteItem refused");
    expect(appends).toEqual([["StartItem"], ["AppendItemDelta"], ["CompleteProviderTurn"]]);
  });

  it("a request is on record before it can be answered, whatever follows it", async () => {
    const { repo, appends } = recordingRepo();
    const seen: number[] = [];
    const request: RuntimeEvent = {
      type: "request.opened",
      requestRef: "r1",
      kind: "command",
      summary: "run ls",
    };
    const consumer = consumerOn(repo, () => seen.push(appends.length));
    await consumer.consume(paced([message[0]!, request, ...message.slice(1), end], 0, []));
    expect(seen).toEqual([1]);
    expect(appends[0]).toEqual(["StartItem", "OpenRuntimeRequest"]);
  });
});
