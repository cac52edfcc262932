// One host connection to an LLRP reader over TCP: frames what arrives by the
// length field, matches each response to its request by message id (the
// reader echoes the request's id), and hands every other message (reports,
// keepalives, events) to `onMessage`.
import net from 'node:net';
import tls from 'node:tls';
import { MSG, RESPONSE_OF } from './constants';
import { LlrpFramer, type LlrpMessage } from './frame';

/** LLRP over TLS: the reader's certificate checked against `ca` (PEM; null: Node's trusted CAs), or pinned by `sha256`. */
export interface LlrpTls {
  readonly ca: string | null;
  /** SHA-256 fingerprint of the reader's certificate, lower-case hex: when set, it alone decides. */
  readonly sha256: string | null;
}

/** The reader's certificate was refused (not trusted, wrong name, fingerprint not the pinned one). */
export class LlrpCertificateError extends Error {
  override name = 'LlrpCertificateError';
}

const fingerprintOf = (cert: { fingerprint256?: string } | undefined): string => (cert?.fingerprint256 ?? '').replace(/:/g, '').toLowerCase();

interface Waiting {
  readonly responseType: number;
  resolve(m: LlrpMessage): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
}

export class LlrpClient {
  private nextId = 1;
  private readonly waiting = new Map<number, Waiting>();
  private closedWith: Error | undefined;
  readonly closed: Promise<Error | undefined>;

  private constructor(
    private readonly socket: net.Socket,
    onMessage: (m: LlrpMessage) => void,
  ) {
    const framer = new LlrpFramer();
    let resolveClosed: (e: Error | undefined) => void = () => undefined;
    this.closed = new Promise((r) => (resolveClosed = r));
    socket.on('data', (chunk: Buffer) => {
      let messages: LlrpMessage[];
      try {
        messages = framer.push(chunk);
      } catch (err) {
        this.destroy(err as Error);
        return;
      }
      for (const m of messages) {
        const w = this.waiting.get(m.id);
        if (w !== undefined && (m.type === w.responseType || m.type === MSG.ERROR_MESSAGE)) {
          this.waiting.delete(m.id);
          clearTimeout(w.timer);
          w.resolve(m);
        } else {
          onMessage(m);
        }
      }
    });
    socket.on('error', (err) => (this.closedWith ??= err));
    socket.on('close', () => {
      const err = this.closedWith ?? new Error('the reader closed the connection');
      this.closedWith = err;
      for (const w of this.waiting.values()) {
        clearTimeout(w.timer);
        w.reject(err);
      }
      this.waiting.clear();
      resolveClosed(err);
    });
  }

  static connect(host: string, port: number, timeoutMs: number, onMessage: (m: LlrpMessage) => void, secure: LlrpTls | null = null): Promise<LlrpClient> {
    return new Promise((resolve, reject) => {
      const socket = secure === null ? net.connect({ host, port }) : LlrpClient.tlsSocket(host, port, secure);
      socket.setNoDelay(true);
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error(`no connection to ${host}:${port} within ${timeoutMs} ms`));
      }, timeoutMs);
      socket.once(secure === null ? 'connect' : 'secureConnect', () => {
        clearTimeout(timer);
        socket.removeListener('error', reject);
        const pinned = secure?.sha256 ?? null;
        if (pinned !== null) {
          const seen = fingerprintOf((socket as tls.TLSSocket).getPeerCertificate());
          if (seen !== pinned) {
            socket.destroy();
            reject(new LlrpCertificateError(`the reader's certificate has SHA-256 ${seen || '(none)'}, not the pinned ${pinned}`));
            return;
          }
        }
        resolve(new LlrpClient(socket, onMessage));
      });
      socket.once('error', (err: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        // Node's certificate verdicts (chain, expiry, name) by their codes.
        reject(secure !== null && /CERT|SIGNATURE|ALTNAME|ISSUER/.test(err.code ?? '') ? new LlrpCertificateError(`the reader's certificate was refused: ${err.message}`) : err);
      });
    });
  }

  /**
   * A TLS connection. Without a pin, Node checks the chain (against `ca` or its trusted CAs) and
   * the name; with a pin the certificate is accepted as itself (readers often carry self-signed
   * ones): its fingerprint is compared once the handshake is done, before any LLRP byte.
   */
  private static tlsSocket(host: string, port: number, secure: LlrpTls): tls.TLSSocket {
    const pinned = secure.sha256 !== null;
    return tls.connect({
      host,
      port,
      ...(net.isIP(host) === 0 ? { servername: host } : {}),
      ...(secure.ca === null ? {} : { ca: secure.ca }),
      rejectUnauthorized: !pinned,
      ...(pinned ? { checkServerIdentity: () => undefined } : {}),
    });
  }

  get isOpen(): boolean {
    return this.closedWith === undefined && !this.socket.destroyed;
  }

  /** Whether the connection is not being read (pause): what the reader sends waits in TCP, which holds it back. */
  get paused(): boolean {
    return this.socket.isPaused();
  }

  /** Stops reading the connection: nothing arrives (reports, keepalives, answers) until `resume`. */
  pause(): void {
    this.socket.pause();
  }

  resume(): void {
    this.socket.resume();
  }

  /** Sends a request built with a fresh message id and resolves with its response (or the reader's ERROR_MESSAGE). */
  request(type: number, build: (id: number) => Buffer, timeoutMs: number): Promise<LlrpMessage> {
    const responseType = RESPONSE_OF[type];
    if (responseType === undefined) throw new Error(`message type ${type} has no response`);
    const id = this.nextId++;
    return this.requestWith(id, responseType, build(id), timeoutMs);
  }

  /** A vendor request (CUSTOM_MESSAGE), answered by a CUSTOM_MESSAGE with the same id. */
  customRequest(build: (id: number) => Buffer, timeoutMs: number): Promise<LlrpMessage> {
    const id = this.nextId++;
    return this.requestWith(id, MSG.CUSTOM_MESSAGE, build(id), timeoutMs);
  }

  private requestWith(id: number, responseType: number, bytes: Buffer, timeoutMs: number): Promise<LlrpMessage> {
    if (!this.isOpen) return Promise.reject(this.closedWith ?? new Error('connection closed'));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(new Error(`no answer to message type ${responseType} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiting.set(id, { responseType, resolve, reject, timer });
      this.socket.write(bytes);
    });
  }

  send(bytes: Buffer): void {
    if (this.isOpen) this.socket.write(bytes);
  }

  /** Closes at once; `closed` resolves with `err`. */
  destroy(err?: Error): void {
    this.closedWith ??= err ?? new Error('closed by tagtrail');
    this.socket.destroy();
  }
}
