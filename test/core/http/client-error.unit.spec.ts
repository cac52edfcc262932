// What the HTTP parser refuses is answered with the JSON error body, with the
// status Node itself gives each parser error (test/app/input-limits.e2e.spec.ts
// sends them over a socket).
import { expect } from 'chai';
import { parserRefusal } from '../../../src/core/http/client-error';

describe('core/http/client-error', () => {
  it('gives each parser error Node\'s status and a message in the JSON error body', () => {
    const statuses = ['HPE_HEADER_OVERFLOW', 'HPE_CHUNK_EXTENSIONS_OVERFLOW', 'ERR_HTTP_REQUEST_TIMEOUT', 'HPE_INVALID_METHOD', 'HPE_INVALID_HEADER_TOKEN', undefined].map((code) => parserRefusal(code, 16384).status);
    expect(statuses).to.deep.equal([431, 413, 408, 400, 400, 400]);
    expect(parserRefusal('HPE_HEADER_OVERFLOW', 8192).body).to.deep.equal({ message: 'Request header fields too large: the request line and headers may be at most 8192 bytes in all', errors: [] });
    expect(parserRefusal(undefined, 16384).body.message).to.equal('Bad request: not a valid HTTP/1.1 request (unknown parser error)');
  });
});
