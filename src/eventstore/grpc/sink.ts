// Writes to a server-streaming call honouring gRPC flow control: when the
// transport's buffer is full we wait for 'drain' instead of queueing, so a
// slow reader holds the producer back and server memory stays flat.
import type { ServerWritableStream } from '@grpc/grpc-js';
import { serializeReadResp, type Outgoing } from './readresp';

export class Sink {
  readonly abort = new AbortController();

  constructor(private readonly call: ServerWritableStream<unknown, Outgoing>) {
    const stop = (): void => this.abort.abort();
    call.on('cancelled', stop);
    call.on('close', stop);
    call.on('error', stop);
  }

  get closed(): boolean {
    return this.abort.signal.aborted || this.call.cancelled;
  }

  /** Resolves false when the call is gone and the producer should stop. */
  async write(m: Outgoing): Promise<boolean> {
    if (this.closed) return false;
    if (this.call.write(m)) return true;
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
