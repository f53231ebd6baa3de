import { tmpdir } from "node:os";
import { query } from "@anthropic-ai/claude-agent-sdk";
import type { ProviderModel } from "@skein/domain/provider";
import { buildChildEnv, type ClaudeConfig } from "./config.ts";
import { createProcessTracker, type TrackedProcess } from "./process-tracker.ts";

/** Reading the catalog starts Claude Code; one that does not answer in this time is given up. */
const LIST_TIMEOUT_MS = 30_000;
/** After close, how long Claude Code gets to exit before it is killed. */
const EXIT_GRACE_MS = 3_000;

/**
 * The models Claude Code offers with this configuration (its `supportedModels()`), read from a
 * short-lived process that is asked nothing and closed at once: no model request is made.
 */
export async function listClaudeModels(config: ClaudeConfig): Promise<ProviderModel[]> {
  let release: () => void = () => undefined;
  const idle = new Promise<void>((resolve) => {
    release = resolve;
  });
  // A prompt stream that never yields keeps the process up without sending anything.
  const noPrompt: AsyncIterable<never> = {
    [Symbol.asyncIterator]: () => ({
      next: () => idle.then(() => ({ done: true as const, value: undefined as never })),
    }),
  };
  const processes = createProcessTracker();
  let child: TrackedProcess | null = null;
  const session = query({
    prompt: noPrompt,
    options: {
      cwd: tmpdir(),
      env: buildChildEnv(config, "default"),
      ...(config.executablePath ? { pathToClaudeCodeExecutable: config.executablePath } : {}),
      spawnClaudeCodeProcess: (spawnOptions) => {
        const { process, tracked } = processes.spawn(spawnOptions);
        child = tracked;
        return process;
      },
    },
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    const models = await Promise.race([
      session.supportedModels(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(
              new Error(`Claude Code did not list its models within ${LIST_TIMEOUT_MS / 1000} s`),
            ),
          LIST_TIMEOUT_MS,
        );
      }),
    ]);
    return models.map((model, index) => ({
      id: model.value,
      displayName: model.displayName,
      description: model.description,
      // Claude Code lists its default ("default"/the configured one) first.
      isDefault: index === 0,
      efforts: model.supportsEffort ? [...(model.supportedEffortLevels ?? [])] : [],
      defaultEffort: null,
    }));
  } finally {
    clearTimeout(timer);
    release();
    session.close();
    await exitOf(child);
  }
}

/** Nothing of the listing outlives the call: the process exits (or is killed) before it returns. */
async function exitOf(child: TrackedProcess | null): Promise<void> {
  if (!child?.alive()) return;
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), EXIT_GRACE_MS);
  });
  if ((await Promise.race([child.exited, grace])) === "late") {
    child.kill("SIGKILL");
    await child.exited;
  }
  clearTimeout(timer);
}
