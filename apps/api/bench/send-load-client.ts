// The sending side of send-load.bench.ts. A send is one plain HTTP call (no batching: a batch
// answers when its slowest call does, which would time the batch, not the send). Each simulated
// person (a load thread) sends over one keep-alive connection of their own, as a browser tab
// does: a shared pool opened a new connection whenever a send left before the previous answer's
// socket was back in the pool (~70 of 500 at 100 threads), and under load Node takes one new
// connection per event-loop turn (libuv 1.46), so those waited in the accept queue for seconds
// while the server answered the others in milliseconds.
import http from "node:http";
import type { ProjectId, ThreadId } from "@skein/domain";
import { createSkeinClient } from "../src/client.ts";

export type Ack = { ms: number; error: null } | { ms: null; error: string };

/** One person's connection: sends go one after another over the same socket. */
export type Person = { agent: http.Agent; connections: number };

export function newPerson(): Person {
  return { agent: new http.Agent({ keepAlive: true, maxSockets: 1 }), connections: 0 };
}

export type LoadClient = ReturnType<typeof loadClient>;

export function loadClient(url: string, timeoutMs: number) {
  const client = createSkeinClient({ url });

  async function send(threadId: ThreadId, text: string, person: Person): Promise<Ack> {
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    // A plain timer too: at 200 × 5 a few sends outlived their AbortSignal.timeout unanswered.
    const late = new Promise<Ack>((resolve) => {
      timer = setTimeout(
        () => resolve({ ms: null, error: `no answer within ${timeoutMs} ms` }),
        timeoutMs + 1_000,
      );
    });
    try {
      return await Promise.race([answer(threadId, text, started, person), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  async function answer(
    threadId: ThreadId,
    text: string,
    started: number,
    person: Person,
  ): Promise<Ack> {
    try {
      const { status, body } = await post(
        `${url}/trpc/thread.sendMessage`,
        JSON.stringify({ threadId, text }),
        person,
        timeoutMs,
      );
      const ms = performance.now() - started;
      const runId = (JSON.parse(body) as { result?: { data?: { runId?: string } } }).result?.data
        ?.runId;
      if (status !== 200 || !runId) return { ms: null, error: `${status} ${body.slice(0, 300)}` };
      return { ms, error: null };
    } catch (error) {
      return { ms: null, error: error instanceof Error ? error.message : String(error) };
    }
  }

  /**
   * `/healthz` one probe after another, `everyMs` apart, until `stop` (which gives the answered
   * probes' times and the failures, in words). A probe the server resets or refuses is counted,
   * not thrown: under this load it happens, and it must not end the bench before its rows.
   */
  function probeHealth(everyMs: number) {
    const times: number[] = [];
    const failures: string[] = [];
    let running = true;
    const loop = (async () => {
      while (running) {
        const started = performance.now();
        try {
          const response = await fetch(`${url}/healthz`);
          await response.arrayBuffer();
          if (response.ok) times.push(performance.now() - started);
          else failures.push(`HTTP ${response.status}`);
        } catch (error) {
          const cause =
            error instanceof Error && error.cause instanceof Error ? error.cause : error;
          failures.push(cause instanceof Error ? cause.message : String(cause));
        }
        await new Promise((resolve) => setTimeout(resolve, everyMs));
      }
    })();
    return {
      async stop() {
        running = false;
        await loop;
        return { times, failures };
      },
    };
  }

  /** The log's head sequence: the first (snapshot) message of a new `events.watch`. */
  function headSequence(): Promise<number> {
    return new Promise((resolve, reject) => {
      const subscription = client.events.watch.subscribe(undefined, {
        onData({ data }) {
          if (data.type !== "snapshot") return;
          subscription.unsubscribe();
          resolve(data.data.snapshotSequence);
        },
        onError: reject,
      });
    });
  }

  /** The server's own event-loop lag (max since start) and CPU time, from its `/metrics`. */
  async function serverFigures(): Promise<{ lagMaxMs: number; cpuSeconds: number }> {
    const text = await (await fetch(`${url}/metrics`)).text();
    const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, "m").exec(text)?.[1]);
    return {
      lagMaxMs: Math.round(value("skein_nodejs_eventloop_lag_max_seconds") * 1000),
      cpuSeconds: Math.round(value("skein_process_cpu_seconds_total") * 10) / 10,
    };
  }

  return {
    send,
    probeHealth,
    headSequence,
    serverFigures,
    /** `ports: false` gives no thread a PORT, so every thread shares one runtime (see the bench). */
    async createProject(workspaceRoot: string, ports: boolean): Promise<ProjectId> {
      const { projectId } = await client.project.create.mutate({
        name: "load",
        workspaceRoot,
        ...(ports ? {} : { settings: { portRange: null } }),
      });
      return projectId;
    },
    async createThread(projectId: ProjectId, title: string): Promise<ThreadId> {
      const { threadId } = await client.thread.create.mutate({
        projectId,
        title,
        provider: "codex",
      });
      return threadId;
    },
  };
}

/** Counts the connection a request had to open (not one kept alive from the previous call). */
function countConnection(request: http.ClientRequest, person: Person): void {
  request.on("socket", () => {
    if (!request.reusedSocket) person.connections += 1;
  });
}

/**
 * Opens the person's connection (a `/healthz` over it), as a page open before the person sends
 * does; resolves with how long it took.
 */
export function connect(url: string, person: Person): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const request = http.get(`${url}/healthz`, { agent: person.agent }, (response) => {
      response.resume();
      response.on("end", () => resolve(performance.now() - started));
    });
    countConnection(request, person);
    request.on("error", reject);
  });
}

/** A POST over the person's own connection; counts the connections it had to open. */
function post(
  url: string,
  body: string,
  person: Person,
  timeoutMs: number,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, {
      method: "POST",
      agent: person.agent,
      headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
      signal: AbortSignal.timeout(timeoutMs),
    });
    countConnection(request, person);
    request.on("response", (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
      );
      response.on("error", reject);
    });
    request.on("error", reject);
    request.end(body);
  });
}
