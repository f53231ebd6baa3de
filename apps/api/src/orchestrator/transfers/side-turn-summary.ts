import type { ProviderKind } from "@skein/domain";
import type { NativeTurnBoundary, RuntimeEvent, ThreadSettings } from "@skein/domain/provider";
import type { SessionManager } from "../runtime/session-manager.ts";

/** Where the side turn runs: the source's own native thread, forked at the handoff's last run. */
export type SideTurnSource = {
  provider: ProviderKind;
  nativeThreadRef: string;
  at: NativeTurnBoundary | null;
  cwd: string;
  model: string | null;
  /** The source thread's runtime environment (its PORT), so its own runtime is the one used. */
  env?: Readonly<Record<string, string>>;
};

/** Asks the source provider for text; rejects with the reason in words. */
export type SummaryWriter = (source: SideTurnSource, prompt: string) => Promise<string>;

/** How long a provider gets to write a handoff before Skein writes its own. */
export const DEFAULT_SUMMARY_TIMEOUT_MS = 120_000;

class SideTurnError extends Error {
  override readonly name = "SideTurnError";
}

/** The turn's last assistant message, once the turn ends; a failed turn rejects with its error. */
async function collectReply(events: AsyncIterable<RuntimeEvent>): Promise<string> {
  const texts = new Map<string, string>();
  let last: string | null = null;
  for await (const event of events) {
    if (event.type === "item.started" && event.kind === "assistant_message") {
      texts.set(event.itemRef, event.fields.text ?? "");
    } else if (event.type === "item.delta" && event.field === "text" && texts.has(event.itemRef)) {
      texts.set(event.itemRef, `${texts.get(event.itemRef) ?? ""}${event.delta}`);
    } else if (event.type === "item.completed" && event.kind === "assistant_message") {
      last = event.fields.text ?? texts.get(event.itemRef) ?? "";
    } else if (event.type === "turn.completed") {
      if (event.status !== "completed") {
        throw new SideTurnError(
          `the provider's turn ${event.status}${event.error ? `: ${event.error}` : ""}`,
        );
      }
      break;
    }
  }
  return last ?? "";
}

/**
 * Issue 25 item 3: a side turn on a native fork of the source's provider thread, so the source
 * keeps its history exactly as it was. Read-only settings (no app tools, approval required so
 * any command it tries is never approved); interrupted past `timeoutMs`.
 */
export function createSideTurnWriter(
  sessions: SessionManager,
  timeoutMs = DEFAULT_SUMMARY_TIMEOUT_MS,
): SummaryWriter {
  return async (source, prompt) => {
    const live = await sessions.ensure(
      source.provider,
      source.cwd,
      source.model,
      source.env,
      source.nativeThreadRef,
    );
    const settings: ThreadSettings = {
      cwd: source.cwd,
      model: source.model,
      runtimeMode: "approval-required",
    };
    sessions.begin(live);
    try {
      const forked = await live.handle.forkThread(
        { nativeThreadRef: source.nativeThreadRef, at: source.at },
        settings,
      );
      live.loadedThreads.add(forked.nativeThreadRef);
      const turn = live.handle.startTurn(forked.nativeThreadRef, { text: prompt }, { settings });
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          void live.handle.interruptTurn(forked.nativeThreadRef, null).catch(() => undefined);
          reject(
            new SideTurnError(
              `the provider did not answer within ${Number((timeoutMs / 1000).toFixed(1))} s`,
            ),
          );
        }, timeoutMs);
      });
      try {
        return await Promise.race([collectReply(turn.events), timedOut]);
      } finally {
        clearTimeout(timer);
      }
    } finally {
      sessions.end(live);
    }
  };
}
