// Message bodies of the relay written into shared slabs instead of one
// Buffer.from per message: one UTF-8 pass per body (Buffer.from measures the
// string, then writes it) and one allocation per many bodies. A body is a
// view into its slab; the slab lives as long as any body in it (until the
// batch is confirmed and dropped).
const SLAB_BYTES = 256 * 1024;

export class BodySlab {
  private slab = Buffer.allocUnsafe(SLAB_BYTES);
  private used = 0;

  /** `text` as UTF-8 bytes. */
  body(text: string): Buffer {
    // A UTF-16 code unit takes at most 3 bytes in UTF-8 (a surrogate pair, two units, takes 4).
    const most = text.length * 3;
    if (most > SLAB_BYTES / 4) return Buffer.from(text, 'utf8');
    if (this.used + most > this.slab.length) {
      this.slab = Buffer.allocUnsafe(SLAB_BYTES);
      this.used = 0;
    }
    const start = this.used;
    this.used += this.slab.write(text, start, 'utf8');
    return this.slab.subarray(start, this.used);
  }
}
