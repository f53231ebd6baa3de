import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../src");
const CONTRACT = path.resolve(SRC, "../../../packages/contract");

/** A value import loads its module; a type-only one does not, but still ties the two files. */
const VALUE_IMPORTS = /^(?:import|export)\s(?!type\b)[^;]*?from\s+"(\.[^"]+)"/gms;
const ALL_IMPORTS = /^(?:import|export)\s[^;]*?from\s+"(\.[^"]+)"/gms;

/** Relative imports (value ones only, unless `pattern` says otherwise) of every source file under `root`. */
function importGraph(root: string, pattern: RegExp = VALUE_IMPORTS): Map<string, string[]> {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.tsx?$/.test(name) && !name.includes(".test.")) files.push(full);
    }
  };
  walk(root);
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const source = readFileSync(file, "utf8");
    const deps: string[] = [];
    for (const match of source.matchAll(pattern)) {
      const target = path.resolve(path.dirname(file), match[1]!);
      if (known.has(target)) deps.push(path.relative(root, target));
    }
    graph.set(path.relative(root, file), deps);
  }
  return graph;
}

/** Every import cycle, each as the files around it. */
function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (file: string) => {
    state.set(file, "open");
    stack.push(file);
    for (const dep of graph.get(file) ?? []) {
      if (state.get(dep) === "open") found.push(stack.slice(stack.indexOf(dep)));
      else if (!state.has(dep)) visit(dep);
    }
    stack.pop();
    state.set(file, "done");
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return found;
}

describe("the API's modules load without cycles (issue 15)", () => {
  it("finds a cycle when there is one", () => {
    const graph = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts"]],
      ["c.ts", ["a.ts"]],
      ["d.ts", ["a.ts"]],
    ]);
    expect(cycles(graph)).toEqual([["a.ts", "b.ts", "c.ts"]]);
  });

  it("apps/api/src has no value-import cycle (the orchestrator's feature folders included)", () => {
    const graph = importGraph(SRC);
    expect(graph.get("orchestrator/runs/run-executor.ts")?.length).toBeGreaterThan(0);
    expect(cycles(graph)).toEqual([]);
  });

  it("apps/api/src has no import cycle at all, type-only imports included (issue 27)", () => {
    const graph = importGraph(SRC, ALL_IMPORTS);
    // Type-only imports are read: recovery.ts once named the executor's type, a cycle this sees.
    expect(graph.get("orchestrator/recovery/recovery.ts")).toContain(
      "orchestrator/runtime/dead-sessions.ts",
    );
    expect(cycles(graph)).toEqual([]);
  });

  it("the run's folders are layered: runs/ uses recovery/ and runtime/, recovery/ uses runtime/, never back (issue 27)", () => {
    const layer = ["orchestrator/runtime/", "orchestrator/recovery/", "orchestrator/runs/"];
    const rank = (file: string) => layer.findIndex((folder) => file.startsWith(folder));
    const upward: string[] = [];
    for (const [file, deps] of importGraph(SRC, ALL_IMPORTS)) {
      if (rank(file) < 0) continue;
      for (const dep of deps) if (rank(dep) > rank(file)) upward.push(`${file} -> ${dep}`);
    }
    expect(upward).toEqual([]);
  });

  it("packages/contract has no value-import cycle and reaches nothing of the API it is hosted by", () => {
    const graph = importGraph(path.join(CONTRACT, "src"));
    expect(graph.get("root.ts")?.length).toBeGreaterThan(0);
    expect(cycles(graph)).toEqual([]);
    // Every import, type-only ones included: the contract compiles without apps/api.
    const outside: string[] = [];
    for (const file of graph.keys()) {
      const source = readFileSync(path.join(CONTRACT, "src", file), "utf8");
      for (const match of source.matchAll(/from\s+"([^"]+)"/g)) {
        const target = match[1]!;
        const escapes =
          target.startsWith(".") &&
          !path.resolve(CONTRACT, "src", path.dirname(file), target).startsWith(CONTRACT);
        if (target.startsWith("@skein/api") || escapes) outside.push(`${file}: ${target}`);
      }
    }
    expect(outside).toEqual([]);
    const manifest = JSON.parse(readFileSync(path.join(CONTRACT, "package.json"), "utf8"));
    expect(Object.keys({ ...manifest.dependencies, ...manifest.devDependencies })).not.toContain(
      "@skein/api",
    );
  });
});
