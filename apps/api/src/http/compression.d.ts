// The `compression` middleware's surface as used here (its @types package drags in Express's).
declare module "compression" {
  import type { IncomingMessage, ServerResponse } from "node:http";
  import type { BrotliOptions, ZlibOptions } from "node:zlib";

  type CompressionOptions = ZlibOptions & {
    /** Bytes below which a response is sent as is; default 1 KB. */
    threshold?: number | string;
    brotli?: BrotliOptions;
    filter?: (req: IncomingMessage, res: ServerResponse) => boolean;
  };

  export default function compression(
    options?: CompressionOptions,
  ): (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;
}
