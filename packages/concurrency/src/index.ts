export { KeyedQueue } from "./keyed-queue.ts";
