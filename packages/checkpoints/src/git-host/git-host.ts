import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";

/** One git command as the host starts it. */
export type GitRequest = {
  args: readonly string[];
  cwd: string;
  /** Variables of this command only, over the environment the helper was started with. */
  env: Record<string, string>;
  input: string | Buffer;
};
/** How it ended: its exit code (null when killed by a signal) and output. */
export type GitReply = { code: number | null; stdout: Buffer; stderr: string };

type Answer =
  | ({ id: number } & GitReply)
  | { id: number; error: { message: string; code: string | null } };
type Pending = { resolve: (reply: GitReply) => void; reject: (error: Error) => void };

const HOST_FILE = fileURLToPath(new URL("./host-process.mjs", import.meta.url));

/**
 * Issue 35: git commands are started by a small helper process, not by the server itself.
 * Starting a process forks its parent, and a fork copies the parent's page tables while its
 * event loop waits: from a server holding a few hundred MB that blocked every request for 5-30 ms
 * per git command (hundreds of seconds in all under load, each run's checkpoints starting about
 * ten). Forked from the helper (tens of MB, nothing else to do) the cost is small and paid off
 * the server's event loop; the server only sends and reads messages.
 *
 * The helper starts on first use and is held only while commands are in flight, so it never
 * keeps the server alive; it exits when the server goes away (its channel closes). A helper that
 * dies fails the commands it was running and is started again by the next one.
 *
 * Every git gets the environment the helper was started with (`baseEnv`, read at its start), and
 * a command's own variables over it: copying and sending the whole environment with each command
 * cost the server ~0.2 ms of CPU a command, ten commands a run (issue 35 item 5).
 */
export class GitHost {
  private child: ChildProcess | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  constructor(private readonly baseEnv: () => NodeJS.ProcessEnv = () => process.env) {}

  run(request: GitRequest): Promise<GitReply> {
    const child = this.child ?? this.start();
    const id = this.nextId++;
    return new Promise<GitReply>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      if (this.pending.size === 1) hold(child, true);
      child.send({ id, ...request }, (error) => {
        if (error) this.settle(id, (p) => p.reject(error));
      });
    });
  }

  private start(): ChildProcess {
    const child = fork(HOST_FILE, [], {
      env: this.baseEnv(),
      execArgv: [],
      serialization: "advanced",
      stdio: ["ignore", "ignore", "inherit", "ipc"],
    });
    child.on("message", (answer: Answer) => {
      this.settle(answer.id, (p) => {
        if ("error" in answer) {
          p.reject(Object.assign(new Error(answer.error.message), { code: answer.error.code }));
        } else {
          const stdout = Buffer.from(
            answer.stdout.buffer,
            answer.stdout.byteOffset,
            answer.stdout.byteLength,
          );
          p.resolve({ code: answer.code, stdout, stderr: answer.stderr });
        }
      });
    });
    const lost = (why: string) => {
      if (this.child !== child) return;
      this.child = null;
      const failed = [...this.pending.values()];
      this.pending.clear();
      for (const p of failed) p.reject(new Error(`the git helper process ${why}`));
    };
    child.on("error", (error) => lost(`failed: ${error.message}`));
    child.on("exit", (code, signal) => lost(`exited (${signal ?? code})`));
    this.child = child;
    hold(child, false);
    return child;
  }

  private settle(id: number, finish: (pending: Pending) => void): void {
    const pending = this.pending.get(id);
    if (!pending) return;
    this.pending.delete(id);
    finish(pending);
    if (this.pending.size === 0 && this.child) hold(this.child, false);
  }
}

/** Keeps the server's event loop alive for the helper only while it has work. */
function hold(child: ChildProcess, busy: boolean): void {
  const channel = child.channel as { ref(): void; unref(): void } | null | undefined;
  if (busy) {
    child.ref();
    channel?.ref();
  } else {
    child.unref();
    channel?.unref();
  }
}
