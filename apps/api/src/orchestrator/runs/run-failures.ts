import { type Command, isDomainError, type RunId } from "@skein/domain";
import { isStoreFault } from "@skein/db";
import { message, pause, type ThreadScope } from "./runner-context.ts";

/** How long a run's failure is retried while the store is unavailable (issue 35). */
const STORE_RETRY_MS = 120_000;

/** Why a run stopped on an error of Skein's own, for the person reading the thread. */
export function runFailureInWords(error: unknown): string {
  if (isStoreFault(error)) {
    return (
      `The run stopped because Skein lost its database (${message(error)}). ` +
      "What the agent did after that was not recorded; send the message again."
    );
  }
  return (
    `The run stopped on an unexpected error in Skein: ${message(error)}. ` +
    "Send the message again; if it keeps failing, the server log has the details."
  );
}

type FailRunCommand = Extract<Command, { type: "FailRun" }>;

/** Fails a run once; a refusal (the lease is gone, the run ended meanwhile) is only logged. */
export function failRun(scope: ThreadScope, runId: RunId, error: string): Promise<void> {
  return appendFailure(scope, {
    type: "FailRun",
    data: { threadId: scope.threadId, runId, error },
  });
}

/** Appends a run's failure once, as `failRun` does. */
export async function appendFailure(scope: ThreadScope, command: FailRunCommand): Promise<void> {
  try {
    await scope.appends.execute(command);
  } catch (cause) {
    const { threadId, runId } = command.data;
    scope.ctx.log.warn(
      { threadId, runId, error: message(cause) },
      "run could not be marked failed",
    );
  }
}

/**
 * Fails a run, trying again while the store is unavailable (bounded by STORE_RETRY_MS): a
 * run whose end was never recorded would keep its thread's queue waiting for nobody.
 */
export async function failRunDurably(
  scope: ThreadScope,
  runId: RunId,
  error: string,
): Promise<void> {
  const { threadId, appends } = scope;
  const deadline = Date.now() + STORE_RETRY_MS;
  for (let attempt = 0; ; attempt += 1) {
    try {
      const ended = await appends
        .execute({ type: "FailRun", data: { threadId, runId, error } })
        .then(
          () => true,
          (refused: unknown) => {
            if (!isDomainError(refused)) throw refused;
            return false;
          },
        );
      // A turn still open (its end never recorded) is ended with the run, as a restart would.
      if (!ended) {
        await appends.execute({
          type: "RecoverInterruptedRun",
          data: { threadId, runId, reason: error },
        });
      }
      return;
    } catch (cause) {
      if (!isStoreFault(cause) || scope.halted() || Date.now() > deadline) {
        scope.ctx.log.warn(
          { threadId, runId, error: message(cause) },
          "run could not be marked failed",
        );
        return;
      }
      await pause(scope.ctx, Math.min(250 * 2 ** attempt, 5_000));
    }
  }
}
