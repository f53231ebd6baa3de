import { z } from "zod";

/** `{ type, data }`; ids and time for the events come from CommandMeta, not from here. */
export function defineCommand<const T extends string, S extends z.ZodRawShape>(type: T, shape: S) {
  return z.object({ type: z.literal(type), data: z.object(shape) });
}
