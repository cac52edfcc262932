// Requests Node's HTTP parser refuses before they reach Koa: headers (the
// request line included, so an over-long path too) beyond the header size
// limit, bytes that are not HTTP, a request not received in time. Node's own
// answer to these is a bare status line; clients parse every refusal of this
// service as the JSON error body, so these get it too, written on the socket
// (there is no request to answer through Koa), and the connection is closed.
import http, { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from '../logger';
import type { ErrorBody } from './errorMiddleware';

/** The status and error body of a request the parser refused with `code`. */
export function parserRefusal(code: string | undefined, maxHeaderSize: number): { status: number; body: ErrorBody } {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, body: { message: `Request header fields too large: the request line and headers may be at most ${maxHeaderSize} bytes in all`, errors: [] } };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 413, body: { message: 'Chunk extensions too large', errors: [] } };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, body: { message: 'Request timeout: the request was not received in time', errors: [] } };
    default:
      return { status: 400, body: { message: `Bad request: not a valid HTTP/1.1 request (${code ?? 'unknown parser error'})`, errors: [] } };
  }
}

/**
 * The server's `clientError` listener. `answering(socket)`: whether a
 * response is under way on that connection; then nothing can be written
 * without corrupting it, and the connection is only closed (as Node does).
 */
export function answerClientErrors(server: http.Server, logger: Logger, answering: (socket: Duplex) => boolean): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    // A client that went away, or a socket already closing: nobody to answer.
    if (err.code === 'ECONNRESET' || !socket.writable || answering(socket)) {
      socket.destroy();
      return;
    }
    // http.maxHeaderSize: Node's limit (16 KiB unless --max-http-header-size says otherwise).
    const { status, body } = parserRefusal(err.code, http.maxHeaderSize);
    logger.debug('http request refused by the parser', { code: err.code, status });
    const json = JSON.stringify(body);
    const head = [`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`, 'Content-Type: application/json; charset=utf-8', `Content-Length: ${Buffer.byteLength(json)}`, 'Connection: close'];
    socket.end(`${head.join('\r\n')}\r\n\r\n${json}`, () => socket.destroy());
  });
}
