declare module 'dynalite' {
  import type { Server } from 'node:http';

  interface DynaliteOptions {
    /** Milliseconds a table stays CREATING (default 500). */
    createTableMs?: number;
    deleteTableMs?: number;
    updateTableMs?: number;
    maxItemSizeKb?: number;
    /** A LevelDB directory; in memory when absent. */
    path?: string;
  }

  /** An HTTP server speaking the DynamoDB API; its `close` also closes the database. */
  export default function dynalite(options?: DynaliteOptions): Server;
}
