import { describe, expect, it } from "vitest";
import { SseParser } from "../src/event-source/sse-parser.ts";

describe("SseParser (HTML event-stream interpretation)", () => {
  it("parses events split anywhere across chunks, with any line ending", () => {
    const stream =
      'event: connected\r\ndata: {}\r\n\r\ndata: {"a":1}\nid: 7\n\n: comment\rdata: x\rdata: y\r\r\n';
    for (let cut = 0; cut <= stream.length; cut += 1) {
      const parser = new SseParser();
      const events = [...parser.push(stream.slice(0, cut)), ...parser.push(stream.slice(cut))];
      expect(events).toEqual([
        { type: "connected", data: "{}", lastEventId: "" },
        { type: "message", data: '{"a":1}', lastEventId: "7" },
        { type: "message", data: "x\ny", lastEventId: "7" },
      ]);
      expect(parser.lastEventId).toBe("7");
    }
  });

  it("an id takes effect at the end of its block even without data; NUL ids are ignored", () => {
    const parser = new SseParser("3");
    expect(parser.push("id: 4\n\n")).toEqual([]);
    expect(parser.lastEventId).toBe("4");
    parser.push("id: a\u0000b\ndata: z\n\n");
    expect(parser.lastEventId).toBe("4");
    expect(parser.push("retry: 250\n\n")).toEqual([]);
    expect(parser.retryMs).toBe(250);
  });

  it("drops a leading BOM and keeps an empty data field as an event", () => {
    const parser = new SseParser();
    expect(parser.push("\uFEFFevent: ping\ndata: \n\n")).toEqual([
      { type: "ping", data: "", lastEventId: "" },
    ]);
  });
});
