// PLACEHOLDER: being written by the lead; the exported API below is fixed.
import type { Logger } from '../core/logger';

export interface EmbeddedEventStoreOptions {
  /** Directory holding the LMDB environment; created if missing. */
  dataDir: string;
  /** Interface to bind, default 127.0.0.1. */
  host?: string;
  /** Port, default 2113; 0 picks a free port. */
  port?: number;
  /** Maximum size in bytes of one append (sum of data + metadata), default 1 MiB like EventStoreDB. */
  maxAppendSize?: number;
  logger?: Logger;
}

export interface EmbeddedEventStore {
  /** e.g. esdb://127.0.0.1:2113?tls=false */
  readonly connectionString: string;
  readonly port: number;
  close(): Promise<void>;
}

export declare function startEmbeddedEventStore(opts: EmbeddedEventStoreOptions): Promise<EmbeddedEventStore>;
