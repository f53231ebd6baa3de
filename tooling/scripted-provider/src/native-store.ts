import type { TurnInput } from "@skein/domain/provider";

export type NativeTurn = {
  ref: string;
  input: TurnInput;
  steers: string[];
  assistantText: string;
  status: "running" | "completed" | "interrupted" | "failed";
};

export type NativeThread = { ref: string; turns: NativeTurn[]; forkedFrom: string | null };

/**
 * The scripted provider's "disk": native threads outlive sessions (as Codex rollouts and Claude
 * session files do), so a crashed session can be resumed from its persisted ref.
 */
export class NativeStore {
  private readonly threads = new Map<string, NativeThread>();
  private counter = 0;

  nextRef(prefix: string): string {
    this.counter += 1;
    return `${prefix}-${this.counter}`;
  }

  create(forkedFrom: string | null, turns: NativeTurn[] = []): NativeThread {
    const thread = { ref: this.nextRef("native-thread"), turns, forkedFrom };
    this.threads.set(thread.ref, thread);
    return thread;
  }

  get(ref: string): NativeThread {
    const thread = this.threads.get(ref);
    if (!thread) throw new Error(`scripted provider: unknown native thread ${ref}`);
    return thread;
  }

  has(ref: string): boolean {
    return this.threads.has(ref);
  }
}
