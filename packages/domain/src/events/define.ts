import { z } from "zod";
import { IsoTimestamp } from "../entities/common.ts";

/** `{ type, data }` where data always carries the command's `at`. */
export function defineEvent<const T extends string, S extends z.ZodRawShape>(type: T, shape: S) {
  return z.object({
    type: z.literal(type),
    data: z.object({ ...shape, at: IsoTimestamp }),
  });
}
