import { expect, it } from "vitest";
import { InvalidAppendError } from "../src/errors.ts";
import { ReceiptConflictError } from "../src/index.ts";
import { inc } from "./support/counter-model.ts";
import { describeStores } from "./support/store-factory.ts";

const bound = (procedure: string, payloadHash: string) => ({ procedure, payloadHash });

describeStores("B3 receipts of commands without events of their own", (stores) => {
  it("B3: an absent receipt is stored as an empty range at the given position, the stream's version there, and its intent cleared", async () => {
    const store = await stores.fresh();
    await store.append("t", 0, [inc(1)]);
    await store.append("other", 0, [inc(1)]);
    await store.append("t", 1, [inc(1)], { commandId: "cmd.step", binding: bound("s", "1") });
    await store.append("t", 2, [inc(1)]);
    await store.recordIntent({ commandId: "cmd", ...bound("thread.fanOut", "h"), data: null });

    const stored = await store.recordReceipt({
      commandId: "cmd",
      ...bound("thread.fanOut", "h"),
      streamId: "t",
      lastSequence: 3,
      receipt: { forks: ["a", "b"] },
    });
    const expected = {
      streamId: "t",
      firstSequence: 4,
      lastSequence: 3,
      // Version 2 is what "t" had at sequence 3; its later event (version 3) is not counted.
      streamVersion: 2,
      receipt: { forks: ["a", "b"] },
      procedure: "thread.fanOut",
      payloadHash: "h",
    };
    expect(stored).toEqual(expected);
    expect(await store.findReceipt("cmd")).toEqual(expected);
    expect(await store.findIntent("cmd")).toBeNull();
    expect(await store.headSequence()).toBe(4);
  });

  it("B3: a second record with the same binding keeps the first; another binding is refused and changes nothing", async () => {
    const store = await stores.fresh();
    await store.append("t", 0, [inc(1), inc(2)]);
    const first = await store.recordReceipt({
      commandId: "cmd",
      ...bound("thread.pickWinner", "h1"),
      streamId: "t",
      lastSequence: 1,
      receipt: { archived: ["x"] },
    });
    const again = await store.recordReceipt({
      commandId: "cmd",
      ...bound("thread.pickWinner", "h1"),
      streamId: "t",
      lastSequence: 2,
      receipt: { archived: [] },
    });
    expect(again).toEqual(first);

    await store.recordIntent({ commandId: "cmd", ...bound("thread.fanOut", "h1"), data: 1 });
    const otherPayload = store.recordReceipt({
      commandId: "cmd",
      ...bound("thread.pickWinner", "h2"),
      streamId: "t",
      lastSequence: 2,
      receipt: null,
    });
    await expect(otherPayload).rejects.toBeInstanceOf(ReceiptConflictError);
    await expect(otherPayload).rejects.toThrow(/thread\.pickWinner with a different payload/);
    const otherProcedure = store.recordReceipt({
      commandId: "cmd",
      ...bound("thread.fanOut", "h1"),
      streamId: "t",
      lastSequence: 2,
      receipt: null,
    });
    await expect(otherProcedure).rejects.toMatchObject({
      name: "ReceiptConflictError",
      procedure: "thread.pickWinner",
    });
    expect(await store.findReceipt("cmd")).toEqual(first);
    // A refused record is rolled back whole: the intent it would have cleared is still there.
    expect(await store.findIntent("cmd")).toMatchObject({ procedure: "thread.fanOut" });
  });

  it("B3: an append's receipt under the id binds it too: the same binding keeps it, another is refused", async () => {
    const store = await stores.fresh();
    const appended = await store.append("t", 0, [inc(1)], {
      commandId: "cmd",
      receipt: { n: 1 },
      binding: bound("thread.sendMessage", "h"),
    });
    const kept = await store.recordReceipt({
      commandId: "cmd",
      ...bound("thread.sendMessage", "h"),
      streamId: "t",
      lastSequence: 1,
      receipt: { n: 2 },
    });
    expect(kept).toMatchObject({
      firstSequence: appended.firstSequence,
      lastSequence: appended.lastSequence,
      receipt: { n: 1 },
    });
    await expect(
      store.recordReceipt({
        commandId: "cmd",
        ...bound("thread.fanOut", "h"),
        streamId: "t",
        lastSequence: 1,
        receipt: null,
      }),
    ).rejects.toBeInstanceOf(ReceiptConflictError);
  });

  it("B3: an append under an id recorded this way replays the recorded receipt or is refused, appending nothing", async () => {
    const store = await stores.fresh();
    await store.append("t", 0, [inc(1)]);
    const recorded = await store.recordReceipt({
      commandId: "cmd",
      ...bound("thread.fanOut", "h"),
      streamId: "t",
      lastSequence: 1,
      receipt: { ok: true },
    });
    const replay = await store.append("t", "any", [inc(1)], {
      commandId: "cmd",
      binding: bound("thread.fanOut", "h"),
    });
    expect(replay).toEqual({
      firstSequence: recorded.firstSequence,
      lastSequence: recorded.lastSequence,
      streamVersion: recorded.streamVersion,
      receipt: { ok: true },
      duplicate: true,
    });
    await expect(
      store.append("t", "any", [inc(1)], { commandId: "cmd", binding: bound("x", "h") }),
    ).rejects.toBeInstanceOf(ReceiptConflictError);
    expect(await store.headSequence()).toBe(1);
  });

  it("B3: a receipt that is no receipt is refused with nothing stored: past the head, unbound, bad id, not JSON", async () => {
    const store = await stores.fresh();
    await store.append("t", 0, [inc(1)]);
    const base = {
      commandId: "cmd",
      ...bound("thread.fanOut", "h"),
      streamId: "t",
      lastSequence: 1,
      receipt: null as unknown,
    };
    const refusals = [
      { ...base, lastSequence: 2 },
      { ...base, lastSequence: -1 },
      { ...base, lastSequence: 1.5 },
      { ...base, procedure: "" },
      { ...base, payloadHash: "" },
      { ...base, commandId: "" },
      { ...base, streamId: "" },
      { ...base, receipt: { big: 1n } },
    ];
    for (const record of refusals) {
      await expect(store.recordReceipt(record)).rejects.toBeInstanceOf(InvalidAppendError);
    }
    await expect(store.recordReceipt({ ...base, lastSequence: 2 })).rejects.toThrow(
      /lastSequence 2 is past the log's head 1/,
    );
    expect(await store.findReceipt("cmd")).toBeNull();
    expect(await store.findReceipt("")).toBeNull();
  });
});
