/** Test support shared by the adapters' suites. */
export { createMemoryRawEventSink, type MemoryRawEventSink } from "./memory-raw-sink.ts";
