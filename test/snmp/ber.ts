// A minimal BER reader for SNMPv2c notifications, independent of net-snmp, so
// the test checks the bytes on the wire rather than the library's own view.
export interface Tlv {
  readonly tag: number;
  readonly value: Buffer;
}

function readTlv(buf: Buffer, at: number): { tlv: Tlv; next: number } {
  const tag = buf[at]!;
  let len = buf[at + 1]!;
  let start = at + 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + buf[start + i]!;
    start += n;
  }
  return { tlv: { tag, value: buf.subarray(start, start + len) }, next: start + len };
}

export function children(buf: Buffer): Tlv[] {
  const out: Tlv[] = [];
  for (let at = 0; at < buf.length; ) {
    const { tlv, next } = readTlv(buf, at);
    out.push(tlv);
    at = next;
  }
  return out;
}

export function integer(v: Buffer): number {
  let n = v[0]! & 0x80 ? -1 : 0;
  for (const b of v) n = n * 256 + b;
  return n;
}

export function oid(v: Buffer): string {
  const first = v[0]!;
  const arcs = [Math.floor(first / 40), first % 40];
  let n = 0;
  for (const b of v.subarray(1)) {
    n = n * 128 + (b & 0x7f);
    if (!(b & 0x80)) {
      arcs.push(n);
      n = 0;
    }
  }
  return arcs.join('.');
}

export interface DecodedNotification {
  readonly version: number;
  readonly community: string;
  /** 0xa7 SNMPv2-Trap, 0xa6 InformRequest */
  readonly pduType: number;
  readonly requestId: number;
  /** oid -> value: OIDs as dotted text, OCTET STRINGs as UTF-8, integers/TimeTicks as numbers. */
  readonly varbinds: ReadonlyArray<{ oid: string; tag: number; value: string | number }>;
}

export function decodeNotification(packet: Buffer): DecodedNotification {
  const [message] = children(packet);
  const [version, community, pdu] = children(message!.value);
  const [reqId, , , list] = children(pdu!.value);
  const varbinds = children(list!.value).map((vb) => {
    const [name, value] = children(vb.value);
    const tag = value!.tag;
    const decoded = tag === 0x06 ? oid(value!.value) : tag === 0x04 ? value!.value.toString('utf8') : integer(value!.value);
    return { oid: oid(name!.value), tag, value: decoded };
  });
  return { version: integer(version!.value), community: community!.value.toString('utf8'), pduType: pdu!.tag, requestId: integer(reqId!.value), varbinds };
}
