/**
 * dynalite 4.0.0 reads ranges (Query, Scan, ListTables) through streams over `level` iterators
 * that it never closes: its streams call `iterator.return()`, which abstract-level iterators do
 * not have, and nothing closes one that reached its end. Each open iterator stays attached to the
 * database with its LevelDB snapshot (a pinned tree version in memory mode), so every Query added
 * memory that was never given back, most of it outside the JavaScript heap. This replaces the two
 * stream factories on each database dynalite creates with ones that close their iterator when the
 * stream ends or is destroyed (a Query that stops at its `Limit` destroys its stream).
 */
import { createRequire } from 'node:module';
import { Readable } from 'node:stream';

interface LevelIterator {
  next(): Promise<unknown>;
  close(): Promise<void>;
}

interface DynaliteLevel {
  keys(options?: unknown): LevelIterator;
  values(options?: unknown): LevelIterator;
  createKeyStream(options?: unknown): Readable;
  createValueStream(options?: unknown): Readable;
}

interface DynaliteDbModule {
  create(options: unknown): { db: DynaliteLevel };
}

const PATCHED = Symbol.for('switchboard.dynaliteClosesIterators');
const counts = { opened: 0, open: 0 };

/** Iterators dynalite's reads opened so far, and those still open (for tests and the soak benchmark). */
export function dynaliteIterators(): { readonly opened: number; readonly open: number } {
  return { ...counts };
}

/** Makes every dynalite server created from now on close the iterators of its reads; idempotent. */
export function closeDynaliteIterators(): void {
  const module = createRequire(import.meta.url)('dynalite/db') as DynaliteDbModule & {
    [PATCHED]?: true;
  };
  if (module[PATCHED]) return;
  const create = module.create.bind(module);
  module.create = (options) => {
    const store = create(options);
    const { db } = store;
    db.createKeyStream = (streamOptions) => closingStream(db.keys(streamOptions));
    db.createValueStream = (streamOptions) => closingStream(db.values(streamOptions));
    return store;
  };
  module[PATCHED] = true;
}

/** A stream of an iterator's items that closes the iterator at its end or when destroyed. */
function closingStream(iterator: LevelIterator): Readable {
  counts.opened += 1;
  counts.open += 1;
  let closing: Promise<void> | undefined;
  const close = () => {
    if (!closing) {
      counts.open -= 1;
      closing = iterator.close();
    }
    return closing;
  };
  return new Readable({
    objectMode: true,
    read() {
      iterator.next().then(
        (item) => {
          if (item !== undefined) this.push(item);
          else
            close().then(
              () => this.push(null),
              (error: Error) => this.destroy(error),
            );
        },
        (error: Error) => this.destroy(error),
      );
    },
    destroy(error, callback) {
      close().then(
        () => callback(error),
        (closeError: Error) => callback(error ?? closeError),
      );
    },
  });
}
