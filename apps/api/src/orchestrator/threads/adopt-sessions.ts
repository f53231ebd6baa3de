import type { EventStore } from "@skein/db";
import {
  adoptedThreadTitle,
  ConflictError,
  CapabilityUnsupportedError,
  type IdSource,
  NotFoundError,
  type ProjectId,
  PreconditionFailedError,
  type ProviderKind,
  type ProviderThread,
  type ThreadId,
  ValidationError,
} from "@skein/domain";
import type { ProviderAdapter } from "@skein/domain/provider";
import type { AggregateRepository } from "../commands/aggregate-repository.ts";
import type { CommandGate } from "../commands/command-gate.ts";
import { KeyedQueue } from "@skein/concurrency";
import type { ProviderSessionListing } from "@skein/contract";
import { MAX_LISTED_SESSIONS } from "@skein/contract/limits";

type Deps = {
  gate: CommandGate;
  repo: AggregateRepository;
  store: EventStore;
  ids: IdSource;
  adapterOf: (provider: ProviderKind) => ProviderAdapter | undefined;
};

/** The adapter, refusing (before any provider work) one that cannot list or read sessions. */
function adopter(deps: Deps, provider: ProviderKind, operation: string) {
  const adapter = deps.adapterOf(provider);
  if (!adapter) throw new ValidationError(`${provider} is not configured on this server`);
  const { listSessions, readSession } = adapter;
  if (!adapter.capabilities.adoptSessions || !listSessions || !readSession) {
    throw new CapabilityUnsupportedError(provider, "adoptSessions", operation);
  }
  return {
    list: listSessions.bind(adapter),
    read: readSession.bind(adapter),
  };
}

/** App threads bound to native threads of `provider`, by native ref (Skein's own threads too). */
async function boundThreads(
  store: EventStore,
  provider: ProviderKind,
): Promise<Map<string, ThreadId>> {
  const { data: rows } = await store.snapshot((q) => q.list("provider_threads"));
  const bound = new Map<string, ThreadId>();
  for (const row of rows) {
    const pt = row.data as ProviderThread;
    if (pt.provider === provider && pt.nativeThreadRef && pt.appThreadId) {
      bound.set(pt.nativeThreadRef, pt.appThreadId);
    }
  }
  return bound;
}

/**
 * B6/E9: listing the person's own Codex threads and Claude sessions for a folder, and adopting
 * one as an app thread bound to it. The provider is read here (effects); what the adoption
 * records is decided by the domain's AdoptThread.
 */
export function adoptCommands(deps: Deps) {
  const { gate, repo, store, ids } = deps;
  // One adoption of a native thread at a time in this process, so two cannot both pass the check.
  const adopting = new KeyedQueue();
  return {
    providerSessions: async (input: {
      provider: ProviderKind;
      workspaceRoot: string;
      limit?: number;
    }): Promise<ProviderSessionListing[]> => {
      const provider = adopter(deps, input.provider, "provider.sessions");
      const limit = Math.min(input.limit ?? MAX_LISTED_SESSIONS, MAX_LISTED_SESSIONS);
      const sessions = await provider.list({ cwd: input.workspaceRoot, limit });
      const bound = await boundThreads(store, input.provider);
      return sessions.map((s) => ({ ...s, threadId: bound.get(s.nativeThreadRef) ?? null }));
    },
    adoptThread: (input: {
      projectId: ProjectId;
      provider: ProviderKind;
      providerThreadId: string;
      commandId?: string;
    }) =>
      gate.run("thread.adopt", input, (command) =>
        adopting.run(`${input.provider}:${input.providerThreadId}`, async () => {
          const provider = adopter(deps, input.provider, "thread.adopt");
          const project = (await repo.project(input.projectId)).project;
          if (!project) throw new NotFoundError("project", input.projectId);
          const existing = (await boundThreads(store, input.provider)).get(input.providerThreadId);
          if (existing) {
            throw new ConflictError(
              `${input.provider} thread ${input.providerThreadId} is already app thread ${existing}`,
            );
          }
          const read = await provider.read(input.providerThreadId);
          if (!read) throw new NotFoundError(`${input.provider} thread`, input.providerThreadId);
          if (read.session.cwd !== project.workspaceRoot) {
            throw new PreconditionFailedError(
              `${input.provider} thread ${input.providerThreadId} ran in ${read.session.cwd}, ` +
                `not in project ${project.id}'s folder ${project.workspaceRoot}`,
            );
          }
          const threadId = ids.next("thread");
          const result = await repo.execute(
            {
              type: "AdoptThread",
              data: {
                threadId,
                projectId: input.projectId,
                title: adoptedThreadTitle(read.session.title),
                provider: input.provider,
                providerThreadId: ids.next("providerThread"),
                nativeThreadRef: read.session.nativeThreadRef,
                turns: read.turns.map((turn) => ({
                  nativeTurnRef: turn.nativeTurnRef,
                  userText: turn.userText ?? "",
                  assistantText: turn.assistantText,
                })),
              },
            },
            command.answer({ threadId, importedRuns: read.turns.length }),
          );
          return {
            ...(result.receipt as { threadId: ThreadId; importedRuns: number }),
            sequence: result.sequence,
          };
        }),
      ),
  };
}
