// Glue for LLRP frames written by hand in tests: these helpers only join hex
// strings and count bytes (LLRP 1.0.1, section 15: a message header is
// 3 reserved bits | 3-bit version | 10-bit type, 32-bit length, 32-bit id; a
// TLV parameter 6 reserved bits | 10-bit type, 16-bit length including its
// 4-byte header). The fields themselves are written out in each test, never
// produced by the code under test.

export const hex = (s: string): Buffer => Buffer.from(s.replace(/\s+/g, ''), 'hex');
export const h16 = (n: number): string => n.toString(16).padStart(4, '0');
export const h32 = (n: number): string => n.toString(16).padStart(8, '0');
/** A TLV parameter: type, then length = 4 + body bytes. */
export const tlv = (type: number, body: string): string => `${h16(type)}${h16(4 + hex(body).length)}${body.replace(/\s+/g, '')}`;
/** A message of version 1: (1 << 10) | type, length = 10 + body, id. */
export const msg = (type: number, id: number, body: string): Buffer => hex(`${h16((1 << 10) | type)}${h32(10 + hex(body).length)}${h32(id)}${body}`);
