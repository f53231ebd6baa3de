import type { EventStore, StoredEvent } from "@skein/db";
import {
  ConflictError,
  type DomainEvent,
  type PlannedStream,
  planThreadImport,
  type ThreadExportDocument,
} from "@skein/domain";
import type { AggregateRepository } from "../commands/aggregate-repository.ts";
import type { CommandGate } from "../commands/command-gate.ts";
import type { ThreadImportResult } from "@skein/contract";

type Deps = { gate: CommandGate; repo: AggregateRepository; store: EventStore };

function sameHistory(existing: readonly StoredEvent[], exported: readonly DomainEvent[]): boolean {
  return (
    existing.length === exported.length &&
    existing.every(
      (event, i) =>
        event.type === exported[i]?.type &&
        JSON.stringify(event.data) === JSON.stringify(exported[i]?.data),
    )
  );
}

function describeStream(streamId: string): string {
  const [kind, ...rest] = streamId.split("-");
  return `${kind} ${rest.join("-")}`;
}

/**
 * appends an exported thread's streams, dependencies first, each with the projection rows its
 * events fold to, so the thread reads here as it read where it was exported. Every stream is
 * checked before anything is written: one that exists with another history is a CONFLICT and
 * nothing changes. Streams already here with the same history are left alone, so repeating an
 * import (or importing two threads of one project) is harmless.
 */
export function threadImportCommands({ gate, repo, store }: Deps) {
  return {
    importThread: (input: { document: ThreadExportDocument; commandId?: string }) =>
      gate.run("thread.import", input, async (command): Promise<ThreadImportResult> => {
        const plan = planThreadImport(input.document);
        const todo: PlannedStream[] = [];
        for (const stream of plan) {
          if ((await store.streamVersion(stream.streamId)) === 0) {
            todo.push(stream);
            continue;
          }
          if (sameHistory(await store.readStream(stream.streamId), stream.events)) continue;
          throw new ConflictError(
            `${describeStream(stream.streamId)} already exists here with a different history; nothing was imported`,
          );
        }
        const answer = {
          threadId: input.document.threadId,
          imported: todo.length,
          alreadyPresent: plan.length - todo.length,
          events: todo.reduce((total, stream) => total + stream.events.length, 0),
        };
        let sequence = await store.headSequence();
        for (const [i, stream] of todo.entries()) {
          // B3: the last append carries the receipt, so the id answers only this import and a
          // replay gets this answer. An import that appends nothing changes nothing to answer for.
          const receipt = i === todo.length - 1 ? command.answer(answer) : {};
          const appended = await store.append(stream.streamId, 0, stream.events, {
            projections: stream.projections,
            ...receipt,
          });
          sequence = appended.lastSequence;
        }
        // A command may have looked for these streams before they existed and cached them empty.
        for (const stream of plan) await repo.refreshStream(stream.streamId);
        return { ...answer, sequence };
      }),
  };
}
