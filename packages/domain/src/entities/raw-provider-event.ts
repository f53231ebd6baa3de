import { z } from "zod";
import { ProviderSessionId, RawEventId } from "../ids.ts";
import { IsoTimestamp, ProviderKind } from "./common.ts";

/**
 * E18: diagnostic evidence written to bounded, rotating log files — never to the event store,
 * and no domain behaviour reads it.
 */
export const RawProviderEvent = z.object({
  id: RawEventId,
  provider: ProviderKind,
  providerSessionId: ProviderSessionId,
  sequence: z.number().int().nonnegative(),
  direction: z.enum(["incoming", "outgoing"]),
  messageKind: z.enum(["request", "response", "notification", "error"]),
  method: z.string().nullable(),
  jsonRpcId: z.union([z.string(), z.number()]).nullable(),
  payload: z.unknown(),
  observedAt: IsoTimestamp,
});
export type RawProviderEvent = z.infer<typeof RawProviderEvent>;
