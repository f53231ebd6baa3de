import type { ThreadShell } from "@skein/domain";
import { beforeEach, expect, it } from "vitest";
import type { EventStore, ProjectionRow } from "../src/index.ts";
import type { ThreadPageFilter } from "../src/event-store.ts";
import { idOf, metaSource } from "./support/execute-command.ts";
import { describeStores } from "./support/store-factory.ts";
import { ThreadDriver } from "./support/thread-driver.ts";

let store: EventStore;

/** 30 threads in two projects; every fifth title says "Alpha"; threads 3 and 8 archived. */
async function seedThreads(): Promise<ThreadDriver[]> {
  const meta = metaSource("page");
  const threads: ThreadDriver[] = [];
  for (let i = 0; i < 30; i += 1) {
    const driver = new ThreadDriver(store, `t${i}`, meta);
    driver.send({
      type: "CreateThread",
      data: {
        threadId: driver.threadId,
        projectId: idOf("project", i % 2 === 0 ? "even" : "odd"),
        title: i % 5 === 0 ? `ALPHA release ${i}` : `note_${i} 100%`,
        defaultProvider: "codex",
      },
    });
    threads.push(driver);
  }
  // Activity out of creation order, so the page order is not the insertion order.
  for (const i of [4, 17, 2]) threads[i]?.completedRun("bump");
  for (const i of [3, 8]) {
    const driver = threads[i] as ThreadDriver;
    driver.send({ type: "ArchiveThread", data: { threadId: driver.threadId } });
  }
  await Promise.all(threads.map((driver) => driver.flush()));
  return threads;
}

async function pageAll(filter: Omit<ThreadPageFilter, "limit" | "after">): Promise<ThreadShell[]> {
  const out: ThreadShell[] = [];
  let after: ThreadPageFilter["after"];
  for (;;) {
    const { data: rows } = await store.snapshot((q) =>
      q.threadPage({ ...filter, limit: 7, ...(after ? { after } : {}) }),
    );
    const shells = rows.map((row: ProjectionRow) => row.data as ThreadShell);
    out.push(...shells);
    const last = shells.at(-1);
    if (shells.length < 7 || last === undefined) return out;
    after = { activeAt: last.lastActivityAt, id: last.id };
  }
}

/** The order the sidebar promises: newest activity first, ties by id (descending). */
function expected(all: ThreadShell[], keep: (shell: ThreadShell) => boolean): string[] {
  return all
    .filter(keep)
    .sort((a, b) =>
      a.lastActivityAt === b.lastActivityAt
        ? b.id.localeCompare(a.id)
        : b.lastActivityAt.localeCompare(a.lastActivityAt),
    )
    .map((shell) => shell.id);
}

describeStores("thread list pages through the listing index (B7)", (stores) => {
  beforeEach(async () => {
    store = await stores.fresh();
  });

  it("B7: pages cover every visible thread once, newest first, by project and archive state", async () => {
    await seedThreads();
    const { data } = await store.snapshot(async (q) =>
      (await q.list("threads")).map((row) => row.data as ThreadShell),
    );
    expect(data.filter((s) => s.archivedAt === null)).toHaveLength(28);
    const paged = await pageAll({ visibility: "active" });
    expect(paged.map((s) => s.id)).toEqual(expected(data, (s) => s.archivedAt === null));
    // The threads with a run were active last, the latest first.
    expect(paged.slice(0, 3).map((s) => s.title)).toEqual([
      "note_2 100%",
      "note_17 100%",
      "note_4 100%",
    ]);
    const even = await pageAll({ visibility: "active", projectId: idOf("project", "even") });
    expect(even.map((s) => s.id)).toEqual(
      expected(data, (s) => s.archivedAt === null && s.projectId === idOf("project", "even")),
    );
    const archived = await pageAll({ visibility: "archived" });
    expect(archived.map((s) => s.title).sort()).toEqual(["note_3 100%", "note_8 100%"]);
  });

  it("B7: search matches a title substring case-insensitively; % and _ match themselves", async () => {
    await seedThreads();
    const alpha = await pageAll({ visibility: "active", query: "alpha" });
    expect(alpha.map((s) => s.title).sort()).toEqual(
      [0, 5, 10, 15, 20, 25].map((i) => `ALPHA release ${i}`).sort(),
    );
    const percent = await pageAll({ visibility: "active", query: "0%" });
    expect(percent).toHaveLength(22);
    // LIKE's wildcards in the query match only themselves.
    expect(await pageAll({ visibility: "active", query: "1%" })).toEqual([]);
    expect(await pageAll({ visibility: "active", query: "not_" })).toEqual([]);
    expect((await pageAll({ visibility: "active", query: "NOTE_1" })).length).toBe(9);
  });

  it("B7: search follows renames (the title index is kept with the shell)", async () => {
    const threads = await seedThreads();
    const first = threads[0] as ThreadDriver;
    const tenth = threads[10] as ThreadDriver;
    first.send({
      type: "UpdateThreadSettings",
      data: { threadId: first.threadId, title: "Quarterly numbers" },
    });
    tenth.send({
      type: "UpdateThreadSettings",
      data: { threadId: tenth.threadId, title: "quarterly plan, ALPHA" },
    });
    await Promise.all([first.flush(), tenth.flush()]);
    const alpha = await pageAll({ visibility: "active", query: "Alpha" });
    expect(alpha.map((s) => s.title).sort()).toEqual(
      [5, 15, 20, 25]
        .map((i) => `ALPHA release ${i}`)
        .concat("quarterly plan, ALPHA")
        .sort(),
    );
    const quarterly = await pageAll({ visibility: "active", query: "QUARTERLY" });
    expect(quarterly.map((s) => s.title).sort()).toEqual([
      "Quarterly numbers",
      "quarterly plan, ALPHA",
    ]);
  });
});

describeStores("fork sibling titles through the (project, title) index (B16)", (stores) => {
  beforeEach(async () => {
    store = await stores.fresh();
  });

  /** Creates threads titled `titles` (with their project and fate) and waits for them. */
  async function seedTitles(titles: [string, string, "archive" | "delete" | null][]) {
    const meta = metaSource("titles");
    const drivers = titles.map(([title, project, fate], i) => {
      const driver = new ThreadDriver(store, `f${i}`, meta);
      driver.send({
        type: "CreateThread",
        data: {
          threadId: driver.threadId,
          projectId: idOf("project", project),
          title,
          defaultProvider: "codex",
        },
      });
      if (fate === "archive")
        driver.send({ type: "ArchiveThread", data: { threadId: driver.threadId } });
      if (fate === "delete")
        driver.send({ type: "DeleteThread", data: { threadId: driver.threadId } });
      return driver;
    });
    await Promise.all(drivers.map((driver) => driver.flush()));
  }

  async function highest(stem: string, project: string): Promise<Record<string, number>> {
    const out: Record<string, number> = {};
    for (const through of ["driver", "prisma"] as const) {
      const filter = { projectId: idOf("project", project), stem };
      out[through] = (await store.snapshot((q) => q.highestSibling(filter), { through })).data;
    }
    return out;
  }

  it("B16: highestSibling counts the stem and its numbered siblings in one project, archived too, deleted not", async () => {
    const stem = "fork of Main at run 3";
    await seedTitles([
      [stem, "even", null],
      [`${stem} (2)`, "even", "archive"],
      [`${stem} (10)`, "even", null],
      [`${stem} (40)`, "even", "delete"],
      [`${stem} (50)`, "odd", null],
      ["fork of Main at run 30", "even", null],
      [`FORK OF MAIN AT RUN 3 (70)`, "even", null],
      [`x ${stem} (80)`, "even", null],
      [`${stem} (90) again`, "even", null],
      [`${stem} (99a)`, "even", null],
      [`${stem} ()`, "even", null],
      [`${stem} (1234567890)`, "even", null],
    ]);
    expect(await highest(stem, "even")).toEqual({ driver: 10, prisma: 10 });
    expect(await highest(stem, "odd")).toEqual({ driver: 50, prisma: 50 });
    expect(await highest("fork of Main at run 30", "even")).toEqual({ driver: 1, prisma: 1 });
    expect(await highest("fork of Other", "even")).toEqual({ driver: 0, prisma: 0 });
  });

  it("B16: titleTaken is an exact, case-sensitive match in one project, archived too, deleted not", async () => {
    const stem = "fork of Main at run 3";
    await seedTitles([
      [`${stem} (2)`, "even", null],
      [`${stem} (3)`, "even", "archive"],
      [`${stem} (4)`, "even", "delete"],
      [`${stem} (5)`, "odd", null],
      [`50% off_sale (6)`, "even", null],
    ]);
    const taken = async (title: string, project = "even") => {
      const out: Record<string, boolean> = {};
      for (const through of ["driver", "prisma"] as const) {
        const filter = { projectId: idOf("project", project), title };
        out[through] = (await store.snapshot((q) => q.titleTaken(filter), { through })).data;
      }
      return out;
    };
    const both = (value: boolean) => ({ driver: value, prisma: value });
    expect(await taken(`${stem} (2)`)).toEqual(both(true));
    expect(await taken(`${stem} (3)`)).toEqual(both(true));
    expect(await taken(`${stem} (4)`)).toEqual(both(false));
    expect(await taken(`${stem} (5)`)).toEqual(both(false));
    expect(await taken(`${stem} (5)`, "odd")).toEqual(both(true));
    expect(await taken(`FORK OF MAIN AT RUN 3 (2)`)).toEqual(both(false));
    expect(await taken(`${stem} (2`)).toEqual(both(false));
    expect(await taken(`50_ off% sale (6)`)).toEqual(both(false));
    expect(await taken(`50% off_sale (6)`)).toEqual(both(true));
  });

  it("B7: a page of deleted threads (the purge's sweep) is read by visibility like the others", async () => {
    await seedTitles([
      ["kept", "even", null],
      ["gone one", "even", "delete"],
      ["put away", "odd", "archive"],
      ["gone two", "odd", "delete"],
    ]);
    for (const through of ["driver", "prisma"] as const) {
      const { data: rows } = await store.snapshot(
        (q) => q.threadPage({ visibility: "deleted", limit: 10 }),
        { through },
      );
      const titles = rows.map((row) => (row.data as ThreadShell).title).sort();
      expect({ through, titles }).toEqual({ through, titles: ["gone one", "gone two"] });
    }
  });

  it("B16: highestSibling takes a stem's LIKE wildcards and brackets as plain text", async () => {
    const stem = "50% off_sale [a] (draft)";
    await seedTitles([
      [`${stem} (3)`, "even", null],
      [`50% offXsale [a] (draft) (99)`, "even", null],
      [`50% off_sale [a] (draft)Z (98)`, "even", null],
      [`50 off_sale [a] (draft) (97)`, "even", null],
    ]);
    expect(await highest(stem, "even")).toEqual({ driver: 3, prisma: 3 });
  });
});

describeStores("ports held, read from the (visibility, port) index (issue 26)", (stores) => {
  beforeEach(async () => {
    store = await stores.fresh();
  });

  it("issue 26: portsHeld lists the ports open threads hold in the range, each once, but the one excepted; archived, deleted and cleared ports are free", async () => {
    const meta = metaSource("ports");
    const plan: [number | null, "archive" | "delete" | "clear" | null][] = [
      [3100, null],
      [3101, "archive"],
      [3102, "delete"],
      [3103, null],
      [3103, null],
      [3104, "clear"],
      [3999, null],
      [4000, null],
      [null, null],
    ];
    const drivers = plan.map(([port, fate], i) => {
      const driver = new ThreadDriver(store, `p${i}`, meta);
      const threadId = driver.threadId;
      driver.send({
        type: "CreateThread",
        data: {
          threadId,
          projectId: idOf("project", "ports"),
          title: `ports ${i}`,
          defaultProvider: "codex",
        },
      });
      if (port !== null) driver.send({ type: "UpdateThreadSettings", data: { threadId, port } });
      if (fate === "archive") driver.send({ type: "ArchiveThread", data: { threadId } });
      if (fate === "delete") driver.send({ type: "DeleteThread", data: { threadId } });
      if (fate === "clear")
        driver.send({ type: "UpdateThreadSettings", data: { threadId, port: null } });
      return driver;
    });
    await Promise.all(drivers.map((driver) => driver.flush()));
    const held = async (filter: { from: number; to: number; except?: string }) => {
      const out: Record<string, number[]> = {};
      for (const through of ["driver", "prisma"] as const) {
        out[through] = (await store.snapshot((q) => q.portsHeld(filter), { through })).data;
      }
      return out;
    };
    const both = (ports: number[]) => ({ driver: ports, prisma: ports });
    expect(await held({ from: 3100, to: 3999 })).toEqual(both([3100, 3103, 3999]));
    expect(await held({ from: 3101, to: 3998 })).toEqual(both([3103]));
    expect(await held({ from: 3100, to: 3999, except: drivers[0]!.threadId })).toEqual(
      both([3103, 3999]),
    );
    // Two threads hold 3103: excepting one leaves it held by the other.
    expect(await held({ from: 3103, to: 3103, except: drivers[3]!.threadId })).toEqual(
      both([3103]),
    );
    expect(await held({ from: 5000, to: 5100 })).toEqual(both([]));
  });
});

describeStores("sub-agent children, read from the subagent_of index (T9)", (stores) => {
  let store: EventStore;
  beforeEach(async () => {
    store = await stores.fresh();
  });

  it("T9: subagentChildren lists a thread's live sub-agent children only: not a promoted or deleted child, nor another thread's", async () => {
    const meta = metaSource("children");
    const create = (name: string, parent?: ThreadDriver) => {
      const driver = new ThreadDriver(store, name, meta);
      driver.send(
        {
          type: "CreateThread",
          data: {
            threadId: driver.threadId,
            projectId: idOf("project", "children"),
            title: name,
            defaultProvider: "codex",
            ...(parent ? { parentThreadId: parent.threadId } : {}),
          },
        },
        (id) => (id === parent?.threadId ? parent.state : undefined),
      );
      return driver;
    };
    const parent = create("parent");
    const other = create("other");
    const kept = [create("child b", parent), create("child a", parent)];
    const promoted = create("child promoted", parent);
    promoted.send({ type: "PromoteThread", data: { threadId: promoted.threadId } });
    const deleted = create("child deleted", parent);
    deleted.send({ type: "DeleteThread", data: { threadId: deleted.threadId } });
    const othersChild = create("other's child", other);
    const grandchild = create("grandchild", kept[0]);
    const drivers = [parent, other, ...kept, promoted, deleted, othersChild, grandchild];
    await Promise.all(drivers.map((driver) => driver.flush()));

    const children = async (of: ThreadDriver) => {
      const out: Record<string, string[]> = {};
      for (const through of ["driver", "prisma"] as const) {
        out[through] = (
          await store.snapshot((q) => q.subagentChildren(of.threadId), { through })
        ).data;
      }
      return out;
    };
    const both = (ids: string[]) => ({ driver: ids, prisma: ids });
    expect(await children(parent)).toEqual(both(kept.map((d) => d.threadId).sort()));
    expect(await children(other)).toEqual(both([othersChild.threadId]));
    expect(await children(kept[0]!)).toEqual(both([grandchild.threadId]));
    expect(await children(promoted)).toEqual(both([]));
  });
});
