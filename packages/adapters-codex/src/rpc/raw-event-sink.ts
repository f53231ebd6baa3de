/**
 * The raw provider log contract (E18) is the domain's; the transport only produces frames for it.
 * The real sink is the rotating file log in `packages/db`.
 */
export type { RawEventSink, RawFrame } from "@skein/domain/provider";
