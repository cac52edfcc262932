// Writes to a server-streaming call honouring gRPC flow control: when the
// transport's buffer is full we wait for 'drain' instead of queueing, so a
// slow reader holds the producer back and server memory stays flat.
//
// Messages written in one turn of the event loop leave in one socket write.
// grpc-js hands the HTTP/2 stream one message at a time and the next only
// once the previous one is written out, so a catch-up cost one `writev` and
// one event-loop turn per event, on the server and again on the client,
// which then reads one small segment per event. The call here is corked for
// the turn and given a `_writev` (see batchWrites) that passes every buffered
// message to the HTTP/2 stream at once, which sends them together.
import type { ServerWritableStream } from '@grpc/grpc-js';
import { serializeReadResp, type Outgoing } from './readresp';

/**
 * Messages the call may hold before the producer waits for 'drain' (grpc-js's
 * own limit, 16, would cut every turn's batch short); at a few hundred bytes
 * each, a subscriber that does not read costs the server at most this many.
 */
export const BUFFERED_MESSAGES = 256;

/** grpc-js's call beneath the stream: takes one serialized message and calls back once it is written. */
interface MessageSender {
  sendMessage(message: unknown, callback: () => void): void;
}
type Writev = (chunks: Array<{ chunk: unknown }>, callback: (err?: Error | null) => void) => void;

/**
 * Gives `call` a `_writev` that sends every buffered message at once, when
 * grpc-js's stream has the call beneath it that its own `_write` uses; false
 * (and the call left as it is) when a grpc-js version has not.
 */
export function batchWrites(call: ServerWritableStream<unknown, Outgoing>): boolean {
  const inner = (call as unknown as { call?: Partial<MessageSender> }).call;
  if (typeof inner?.sendMessage !== 'function') return false;
  const sender = inner as MessageSender;
  const writev: Writev = (chunks, callback) => {
    const last = chunks.length - 1;
    // grpc-js calls back only on success (a failure ends the call with a status), so the batch is done with its last message.
    chunks.forEach(({ chunk }, i) => sender.sendMessage(chunk, i === last ? () => callback() : noop));
  };
  (call as unknown as { _writev: Writev })._writev = writev;
  return true;
}

const noop = (): void => undefined;

export class Sink {
  readonly abort = new AbortController();
  private corked = false;

  constructor(private readonly call: ServerWritableStream<unknown, Outgoing>) {
    const stop = (): void => this.abort.abort();
    call.on('cancelled', stop);
    call.on('close', stop);
    call.on('error', stop);
    this.batched = batchWrites(call);
  }

  /** Whether writes of one turn leave together (see the top of the file). */
  readonly batched: boolean;

  get closed(): boolean {
    return this.abort.signal.aborted || this.call.cancelled;
  }

  /**
   * Writes `m`: true at once while the call has room (the producer goes on
   * in the same turn), else a promise of whether the call is still open
   * once it has drained. False when the call is gone and the producer
   * should stop.
   */
  write(m: Outgoing): boolean | Promise<boolean> {
    if (this.closed) return false;
    this.corkForTurn();
    this.call.write(m);
    if (this.call.writableLength < BUFFERED_MESSAGES) return true;
    return this.drained();
  }

  private corkForTurn(): void {
    if (!this.batched || this.corked) return;
    this.corked = true;
    this.call.cork();
    process.nextTick(() => {
      this.corked = false;
      this.call.uncork();
    });
  }

  private async drained(): Promise<boolean> {
    // The buffer empties (and 'drain' comes) only once the turn's writes are uncorked.
    await new Promise<void>((resolve) => {
      const done = (): void => {
        this.call.off('drain', done);
        this.abort.signal.removeEventListener('abort', done);
        resolve();
      };
      this.call.on('drain', done);
      this.abort.signal.addEventListener('abort', done, { once: true });
    });
    return !this.closed;
  }

  end(): void {
    if (!this.closed) this.call.end();
  }

  fail(err: unknown): void {
    if (!this.closed) this.call.emit('error', err);
  }

  /** Ends the call from the server side (shutdown), whatever the producer is doing. */
  terminate(err: unknown): void {
    const wasOpen = !this.closed;
    this.abort.abort();
    if (wasOpen) this.call.emit('error', err);
  }
}

export { serializeReadResp };
