// The embedded event store: an EventStoreDB-protocol gRPC server over the
// LMDB log, so tagtrail runs on one machine with no EventStoreDB install and
// the same client code talks to a real cluster in production.
import { Metadata, Server, ServerCredentials, setLogger, status, type ServiceDefinition, type UntypedServiceImplementation } from '@grpc/grpc-js';
import { createLogger, type Logger } from '../core/logger';
import { EventLog } from './storage/log';
import { lockDirectory, type DirLock } from '../core/dir-lock';
import { DAMAGE_WAY_OUT } from './storage/damage';
import type { CorruptRecord } from './storage/records';
import { ServerFeaturesService, StreamsService } from './grpc/proto';
import { readHandler } from './grpc/read';
import { appendHandler, batchAppendHandler } from './grpc/append';
import { deleteHandler, tombstoneHandler } from './grpc/delete';
import { supportedMethodsHandler } from './grpc/features';
import { watchSpace } from './grpc/space';
import { serializeReadResp } from './grpc/readresp';
import type { Sink } from './grpc/sink';

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
  /** The time events are recorded at (epoch ms); the system clock unless a test moves time on. */
  now?: () => number;
  /** Told once per damaged record a read meets (after it is logged). */
  onCorrupt?: (err: CorruptRecord) => void;
}

export interface EmbeddedEventStore {
  /** e.g. esdb://127.0.0.1:2113?tls=false */
  readonly connectionString: string;
  readonly port: number;
  close(): Promise<void>;
}

export const DEFAULT_MAX_APPEND_SIZE = 1024 * 1024;

/**
 * grpc-js prints its own plain-text lines on stderr ("E No address added
 * ..."). Every failure it reports also reaches us as an error of the call,
 * which we log as JSON with context, so its lines go to debug as JSON.
 */
function routeGrpcLogs(logger: Logger): void {
  const line = (...args: unknown[]): void => logger.debug('grpc', { detail: args.map(String).join(' ') });
  setLogger({ error: line, info: line, debug: line });
}

// Clients treat UNAVAILABLE as "reconnect and resubscribe".
function shuttingDown(): Error {
  return Object.assign(new Error('server is shutting down'), {
    code: status.UNAVAILABLE,
    details: 'server is shutting down',
    metadata: new Metadata(),
  });
}

/** Read answers events as pre-encoded bytes; every other message goes through its class. */
function withRawReadResponses(def: ServiceDefinition): ServiceDefinition {
  const read = def['read'];
  if (!read) throw new Error('Streams service definition has no read method');
  return { ...def, read: { ...read, responseSerialize: serializeReadResp } };
}

/** The log of `opts.dataDir`, checked (a damaged store throws StoreDamaged); the lock is let go when it does not open. */
function openLog(opts: EmbeddedEventStoreOptions, maxAppendSize: number, logger: Logger, lock: DirLock): EventLog {
  try {
    return new EventLog(opts.dataDir, {
      maxAppendSize,
      ...(opts.now ? { now: opts.now } : {}),
      onCorrupt: (err) => {
        logger.error('event log record damaged', { position: err.position.toString(), reason: err.reason, dataDir: opts.dataDir, todo: DAMAGE_WAY_OUT });
        opts.onCorrupt?.(err);
      },
    });
  } catch (err) {
    void lock.release();
    throw err;
  }
}

export async function startEmbeddedEventStore(opts: EmbeddedEventStoreOptions): Promise<EmbeddedEventStore> {
  const logger = opts.logger ?? createLogger('eventstore');
  routeGrpcLogs(logger.child('grpc'));
  const host = opts.host ?? '127.0.0.1';
  const maxAppendSize = opts.maxAppendSize ?? DEFAULT_MAX_APPEND_SIZE;
  // One process at a time owns a store: two would append at the same positions.
  const lock = await lockDirectory(opts.dataDir, 'embedded event store');
  const log = openLog(opts, maxAppendSize, logger, lock);
  const server = new Server({
    'grpc.max_receive_message_length': 17 * 1024 * 1024,
    'grpc.keepalive_permit_without_calls': 1,
    'grpc.http2.min_ping_interval_without_data_ms': 5000,
  });
  const openReads = new Set<Sink>();
  const writes = watchSpace(log, opts.dataDir, logger);
  const streams: UntypedServiceImplementation = {
    read: readHandler(log, openReads),
    append: appendHandler(writes, maxAppendSize),
    batchAppend: batchAppendHandler(writes, maxAppendSize),
    delete: deleteHandler(writes),
    tombstone: tombstoneHandler(writes),
  };
  server.addService(withRawReadResponses(StreamsService), streams);
  server.addService(ServerFeaturesService, { getSupportedMethods: supportedMethodsHandler() });
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync(`${host}:${opts.port ?? 2113}`, ServerCredentials.createInsecure(), (err, p) =>
      err ? reject(err) : resolve(p),
    );
  }).catch(async (err: unknown) => {
    await log.close();
    await lock.release();
    throw err;
  });
  logger.info('embedded event store listening', { host, port, dataDir: opts.dataDir, head: log.head.committed });
  let closed = false;
  return {
    port,
    connectionString: `esdb://${host}:${port}?tls=false`,
    async close() {
      if (closed) return;
      closed = true;
      // Endless subscriptions would hold the shutdown; end them first.
      for (const sink of openReads) sink.terminate(shuttingDown());
      // Give open calls (subscriptions are endless) a moment, then cut them.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, 500);
        server.tryShutdown(() => {
          clearTimeout(timer);
          resolve();
        });
      });
      // Read loops still running notice the abort at their next step.
      await new Promise((r) => setImmediate(r));
      await log.close();
      await lock.release();
      logger.info('embedded event store stopped', { port });
    },
  };
}
