/**
 * Issue 20: thrown when a compact thread state (see compact-state.ts) is asked for something it
 * left out. Not a domain error: it escapes `decide`'s guard, and the repository answers it by
 * loading the thread's full state and deciding again, so the answer is always the full one.
 */
export class HistoryNeeded extends Error {
  constructor(what: string) {
    super(`compact thread state does not hold ${what}`);
    this.name = "HistoryNeeded";
  }
}

const rawEntries = Map.prototype.entries;

/** Whether a key may have been left out (false: it never was, so a miss is a real absence). */
export type KeyFilter = { mayHold(key: unknown): boolean };

/**
 * The keys a compact state left out, as a Bloom filter (about 10 bits a key, 1% false hits): a
 * key it has never seen was never in the full state either, so a miss on it is a real absence
 * (a new run's id, a new node's counters). A false hit only costs a load of the full state.
 */
export class LeftOutKeys {
  private constructor(
    private readonly bits: Uint8Array,
    private readonly hashes: number,
  ) {}

  static of(keys: readonly string[]): LeftOutKeys {
    const size = Math.max(64, Math.ceil((keys.length * 10) / 8));
    const filter = new LeftOutKeys(new Uint8Array(size), 7);
    for (const key of keys) filter.add(key);
    return filter;
  }

  static fromText(text: string): LeftOutKeys {
    return new LeftOutKeys(new Uint8Array(Buffer.from(text, "base64")), 7);
  }

  toText(): string {
    return Buffer.from(this.bits).toString("base64");
  }

  private positions(key: string): number[] {
    // Two FNV-1a variants combined (Kirsch–Mitzenmacher double hashing).
    let h1 = 0x811c9dc5;
    let h2 = 0x01000193;
    for (let i = 0; i < key.length; i += 1) {
      const c = key.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 0x01000193);
      h2 = Math.imul(h2 ^ c, 0x5bd1e995) ^ (h2 >>> 15);
    }
    const m = this.bits.length * 8;
    const out: number[] = [];
    for (let i = 0; i < this.hashes; i += 1) out.push(((h1 + i * (h2 | 1)) >>> 0) % m);
    return out;
  }

  private add(key: string): void {
    for (const p of this.positions(key)) this.bits[p >> 3]! |= 1 << (p & 7);
  }

  mayHold(key: unknown): boolean {
    return this.positions(String(key)).every((p) => (this.bits[p >> 3]! & (1 << (p & 7))) !== 0);
  }
}

/**
 * A Map holding only some of its entries (the recent runs' ones). A hit answers as usual; a miss
 * could be an entry left out, so it throws `HistoryNeeded` instead of answering "absent"; so does
 * anything that needs every entry (size, iteration). Adding, replacing and deleting entries work
 * as usual: an entry set here is current, and one deleted here is gone from the full state too.
 */
export class PartialMap<K, V> extends Map<K, V> {
  leftOut: KeyFilter | null = null;

  override get(key: K): V | undefined {
    if (super.has(key)) return super.get(key);
    if (this.leftOut && !this.leftOut.mayHold(key)) return undefined;
    throw new HistoryNeeded(`entry ${String(key)}`);
  }

  override has(key: K): boolean {
    if (super.has(key)) return true;
    if (this.leftOut && !this.leftOut.mayHold(key)) return false;
    throw new HistoryNeeded(`entry ${String(key)}`);
  }

  override get size(): number {
    throw new HistoryNeeded("every entry");
  }

  override entries(): MapIterator<[K, V]> {
    throw new HistoryNeeded("every entry");
  }

  override keys(): MapIterator<K> {
    throw new HistoryNeeded("every entry");
  }

  override values(): MapIterator<V> {
    throw new HistoryNeeded("every entry");
  }

  override forEach(): void {
    throw new HistoryNeeded("every entry");
  }

  override [Symbol.iterator](): MapIterator<[K, V]> {
    throw new HistoryNeeded("every entry");
  }
}

/** The entries a map holds, partial or not (for pruning and serializing only). */
export function heldEntries<K, V>(map: Map<K, V>): MapIterator<[K, V]> {
  return rawEntries.call(map) as MapIterator<[K, V]>;
}

/** The values a map holds, partial or not (for sets a compact state keeps whole, see prune). */
export function heldValues<K, V>(map: Map<K, V>): MapIterator<V> {
  return Map.prototype.values.call(map) as MapIterator<V>;
}

/** The value a map holds for a key, or undefined, without a partial map's miss check. */
export function heldValue<K, V>(map: Map<K, V>, key: K): V | undefined {
  return Map.prototype.get.call(map, key) as V | undefined;
}
