import { randomBytes } from "node:crypto";
import { ID_PREFIXES, type IdKind, type IdOf, type IdSource } from "@skein/domain";

const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";

/**
 * The edge's id supply: `<prefix>_<time><random>`. The millisecond time part keeps ids roughly
 * creation-ordered (handy in logs and indexes); ~62 random bits keep two instances from colliding.
 */
export function createIdGenerator(now: () => number = Date.now): IdSource {
  let pool = randomBytes(4096);
  let offset = 0;
  const randomPart = (): string => {
    if (offset + 12 > pool.length) {
      pool = randomBytes(4096);
      offset = 0;
    }
    let out = "";
    for (let i = 0; i < 12; i += 1) out += ALPHABET[pool[offset + i]! % 36];
    offset += 12;
    return out;
  };
  return {
    next<K extends IdKind>(kind: K): IdOf<K> {
      const time = now().toString(36).padStart(9, "0");
      return `${ID_PREFIXES[kind]}_${time}${randomPart()}` as IdOf<K>;
    },
  };
}
