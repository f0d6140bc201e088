/**
 * Checks an LMDB data file with plain reads, before LMDB maps it: LMDB trusts its file, so a truncated one makes it
 * touch memory past the end (SIGBUS) and zeroed or overwritten pages make it follow garbage pointers (SIGSEGV), and
 * neither can be caught once it happens. The layout read here is the one the `lmdb` package writes (LMDB
 * mdb.master3): a 24-byte page header (pgno u64, txnid u64, pad u16, flags u16, lower u16, upper u16, with lower and
 * upper counted from the header's end), then in pages 0 and 1 the meta (magic 0xBEEFC0DE, version, address, map
 * size, the free and main databases, last page, txnid).
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

const MAGIC = 0xbeefc0de;
const HEADER = 24;
const P_BRANCH = 0x01;
const P_LEAF = 0x02;
const P_OVERFLOW = 0x04;
const P_META = 0x08;
const F_BIGDATA = 0x01;
const F_SUBDATA = 0x02;
const NO_PAGE = 0xffffffffffffffffn;
/** Offsets in a meta page. */
const M = { magic: 24, version: 28, mapSize: 40, pageSize: 48, freeDb: 48, mainDb: 96, lastPage: 144, txnid: 152 } as const;
/** Offsets in a database record (MDB_db, 48 bytes): depth, entries and root. */
const DB = { depth: 6, entries: 32, root: 40, size: 48 } as const;

interface Meta {
  pageSize: number;
  lastPage: number;
  txnid: bigint;
  roots: { root: bigint; depth: number }[];
}

/** What a check found: `problem` is undefined when the file is sound. */
export interface CacheFileCheck {
  problem?: string;
  /** Pages the walk visited (the metas and every page reachable from them). */
  pages: number;
  /** Entries of each named database, from its record (e.g. `answers`), when the walk got that far. */
  entries?: Record<string, number>;
  /** Bytes in the file. */
  bytes: number;
}

class Reader {
  readonly size: number;
  constructor(private readonly fd: number) {
    this.size = fstatSync(fd).size;
  }
  read(at: number, length: number): Buffer {
    const buf = Buffer.allocUnsafe(length);
    const n = readSync(this.fd, buf, 0, length, at);
    return n === length ? buf : buf.subarray(0, n);
  }
}

function readMeta(r: Reader, which: 0 | 1, pageSize: number): Meta | string {
  const at = which * pageSize;
  const b = r.read(at, 160);
  if (b.length < 160) return `meta page ${which} is cut off (the file has ${r.size} bytes)`;
  if (b.readUInt32LE(M.magic) !== MAGIC) return `meta page ${which} has no LMDB magic number (0xBEEFC0DE)`;
  const version = b.readUInt32LE(M.version);
  if (version < 1 || version > 999) return `meta page ${which} has an unknown version ${version}`;
  if (b.readBigUInt64LE(0) !== BigInt(which) || (b.readUInt16LE(18) & P_META) === 0) return `meta page ${which} has a wrong page header`;
  const size = b.readUInt32LE(M.pageSize);
  if (size !== pageSize) return `meta page ${which} records a page size of ${size}, not ${pageSize}`;
  const mapSize = b.readBigUInt64LE(M.mapSize);
  const lastPage = b.readBigUInt64LE(M.lastPage);
  if (lastPage < 1n || lastPage * BigInt(pageSize) >= mapSize) return `meta page ${which} records an impossible last page ${lastPage}`;
  const roots = [M.freeDb, M.mainDb].map((o) => ({ root: b.readBigUInt64LE(o + DB.root), depth: b.readUInt16LE(o + DB.depth) }));
  return { pageSize, lastPage: Number(lastPage), txnid: b.readBigUInt64LE(M.txnid), roots };
}

/** Both metas (LMDB refuses, or worse, when either is bad) and the newer of them, which is what LMDB will use. */
function readMetas(r: Reader): Meta | string {
  if (r.size < 2 * 4096) return `the file is ${r.size} bytes, shorter than LMDB's two meta pages`;
  const head = r.read(0, 160);
  const first = head.readUInt32LE(M.magic) === MAGIC ? head.readUInt32LE(M.pageSize) : 0;
  // The page size is recorded in meta 0; when that is gone, the usual sizes are tried so the report says which meta is bad.
  const sizes = first >= 512 && first <= 65536 && (first & (first - 1)) === 0 ? [first] : [4096, 8192, 16384, 65536];
  let problem = '';
  for (const size of sizes) {
    const metas = [readMeta(r, 0, size), readMeta(r, 1, size)];
    const bad = metas.find((m): m is string => typeof m === 'string');
    if (bad === undefined) {
      const [a, b] = metas as Meta[];
      return a!.txnid >= b!.txnid ? a! : b!;
    }
    problem ||= bad;
  }
  return problem;
}

/** A page LMDB would read: where it is, the depth its database records there, and what its leaves hold. */
interface Visit {
  page: bigint;
  depth: number;
  /** The main database: its leaves name the sub-databases, which are walked too. */
  main: boolean;
  /** Overflow pages: the bytes the node pointing here says they hold. */
  bytes?: number;
}

/**
 * Walks the pages reachable from the meta, checking every header field LMDB trusts (mdb.c reads them without a
 * check and acts on them): the page number, the txnid (a page whose txnid is past the meta's is taken for one this
 * transaction may write in place, and the write into the read-only map is a SIGSEGV), the flags, the node bounds
 * (lower, upper, each node's offset, key and data inside the page), the overflow count against the last page and
 * the node that points there, and the depth each branch or leaf sits at. Named databases (the cache's `answers` and
 * `identities`) are followed from the main database's leaves, and their entry counts read from their records.
 */
function walk(r: Reader, meta: Meta): { problem?: string; pages: number; entries: Record<string, number> } {
  const ps = meta.pageSize;
  const seen = new Set<number>();
  const entries: Record<string, number> = {};
  const stack: Visit[] = meta.roots.map((d, i) => ({ page: d.root, depth: d.depth, main: i === 1 }));
  const bad = (problem: string) => ({ problem, pages: seen.size, entries });
  while (stack.length) {
    const { page, depth, main, bytes } = stack.pop()!;
    if (page === NO_PAGE) continue;
    if (page < 2n) return bad(`a page points to meta page ${page}`);
    if (page > BigInt(meta.lastPage)) return bad(`a page points to page ${page}, past the last page ${meta.lastPage}`);
    const p = Number(page);
    if (seen.has(p)) return bad(`page ${p} is reached twice`);
    seen.add(p);
    const b = r.read(p * ps, ps);
    if (b.length < ps) return bad(`page ${p} lies past the end of the file (${r.size} bytes)`);
    const pgno = b.readBigUInt64LE(0);
    if (pgno !== page) return bad(`page ${p} is overwritten (its header says page ${pgno})`);
    const txnid = b.readBigUInt64LE(8);
    if (txnid > meta.txnid) return bad(`page ${p} records transaction ${txnid}, later than the file's last (${meta.txnid})`);
    const flags = b.readUInt16LE(18);
    if (bytes !== undefined) {
      if (flags !== P_OVERFLOW) return bad(`page ${p} should be an overflow page but has flags 0x${flags.toString(16)}`);
      const count = b.readUInt32LE(20);
      if (count < 1 || p + count - 1 > meta.lastPage) return bad(`overflow page ${p} runs past the last page`);
      if (HEADER + bytes > count * ps) return bad(`overflow page ${p} is shorter than the ${bytes} bytes its node says it holds`);
      for (let q = p + 1; q < p + count; q++) {
        if (seen.has(q)) return bad(`page ${q} is reached twice`);
        seen.add(q);
      }
      continue;
    }
    if (flags !== P_BRANCH && flags !== P_LEAF) return bad(`page ${p} has unknown flags 0x${flags.toString(16)}`);
    if (flags === P_BRANCH ? depth < 2 : depth !== 1) return bad(`page ${p} is not at the depth its database records`);
    const lower = b.readUInt16LE(20);
    const upper = b.readUInt16LE(22);
    if (lower % 2 || lower > upper || HEADER + upper > ps) return bad(`page ${p} has impossible bounds`);
    for (let i = 0; i < lower / 2; i++) {
      const at = HEADER + b.readUInt16LE(HEADER + 2 * i);
      if (at < HEADER + upper || at + 8 > ps) return bad(`page ${p} has a node outside its bounds`);
      const lo = b.readUInt16LE(at);
      const hi = b.readUInt16LE(at + 2);
      const nodeFlags = b.readUInt16LE(at + 4);
      const keySize = b.readUInt16LE(at + 6);
      const data = at + 8 + keySize;
      if (data > ps) return bad(`page ${p} has a node outside its bounds`);
      if (flags === P_BRANCH) {
        stack.push({ page: BigInt(lo) | (BigInt(hi) << 16n) | (BigInt(nodeFlags) << 32n), depth: depth - 1, main });
        continue;
      }
      if (nodeFlags & ~(F_BIGDATA | F_SUBDATA)) return bad(`page ${p} has a node with unknown flags 0x${nodeFlags.toString(16)}`);
      const dataSize = lo | (hi << 16);
      if (nodeFlags & F_BIGDATA) {
        if (data + 8 > ps) return bad(`page ${p} has a node outside its bounds`);
        stack.push({ page: b.readBigUInt64LE(data), depth: 0, main: false, bytes: dataSize });
      } else if (data + dataSize > ps) return bad(`page ${p} has a node outside its bounds`);
      else if (main && nodeFlags & F_SUBDATA) {
        if (dataSize !== DB.size) return bad(`page ${p} holds a database record of ${dataSize} bytes, not ${DB.size}`);
        entries[b.toString('latin1', at + 8, data).replace(/\0$/, '')] = Number(b.readBigUInt64LE(data + DB.entries));
        stack.push({ page: b.readBigUInt64LE(data + DB.root), depth: b.readUInt16LE(data + DB.depth), main: false });
      }
    }
  }
  return { pages: seen.size, entries };
}

/**
 * Checks the LMDB file at `path` without mapping it: the two meta pages, the file's length against the last page
 * they record, and every page reachable from them (about 3 ms per MiB; LMDB's map, and so the file, stays under
 * 1 GiB). A missing or empty file is
 * sound (LMDB starts a new one). A writer in another process may commit meanwhile, so a failed walk is retried
 * when the metas have moved on.
 */
export function checkCacheFile(path: string): CacheFileCheck {
  const fd = openSync(path, 'r');
  try {
    let result: CacheFileCheck = { pages: 0, bytes: 0 };
    for (let attempt = 0; attempt < 3; attempt++) {
      const r = new Reader(fd);
      if (r.size === 0) return { pages: 0, bytes: 0 };
      const meta = readMetas(r);
      if (typeof meta === 'string') return { problem: meta, pages: 0, bytes: r.size };
      const needed = (meta.lastPage + 1) * meta.pageSize;
      if (r.size < needed)
        return { problem: `the file is truncated: ${r.size} bytes where its meta page records ${needed}`, pages: 0, bytes: r.size };
      const walked = walk(r, meta);
      result = { ...walked, pages: walked.pages + 2, bytes: r.size };
      if (walked.problem === undefined) return result;
      const again = readMetas(new Reader(fd));
      if (typeof again === 'string' || again.txnid === meta.txnid) return result;
    }
    return result;
  } finally {
    closeSync(fd);
  }
}
