import type { Readable, Writable } from "node:stream";

/**
 * The agent's stdio as the byte streams `ndJsonStream` reads and writes, one thin layer over the
 * pipes. `Writable.toWeb` / `Readable.toWeb` cost ~0.5 ms of CPU per frame here (issue 28's
 * acp_turn_overhead_ratio: the prompt frame reached the agent that much later); these hand each
 * chunk straight through and keep backpressure both ways.
 */
export function pipeSink(pipe: Writable): WritableStream<Uint8Array> {
  return new WritableStream<Uint8Array>({
    write: (chunk) =>
      new Promise<void>((resolve, reject) => {
        pipe.write(chunk, (error) => (error ? reject(error) : resolve()));
      }),
    close: () => new Promise<void>((resolve) => pipe.end(resolve)),
    abort: () => {
      pipe.destroy();
    },
  });
}

/** Chunks from `pipe` in order; the pipe pauses while the reader is a buffer behind. */
export function pipeSource(pipe: Readable): ReadableStream<Uint8Array> {
  let paused = false;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        pipe.on("data", (chunk: Buffer) => {
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 1) <= 0 && !paused) {
            paused = true;
            pipe.pause();
          }
        });
        pipe.once("end", () => controller.close());
        pipe.once("error", (error) => controller.error(error));
      },
      pull() {
        if (paused) {
          paused = false;
          pipe.resume();
        }
      },
      cancel() {
        pipe.destroy();
      },
    },
    { highWaterMark: 16 },
  );
}
