import { expect } from 'chai';
import { BodySlab } from '../../src/queues/body-slab';

describe('queues: message bodies in shared slabs', () => {
  it('each body is the UTF-8 of its text and stays intact while later bodies fill this and new slabs', () => {
    const slab = new BodySlab();
    const texts: string[] = [];
    for (let i = 0; i < 5000; i++) {
      const kinds = [`{"epc":"E2801160${i}","toZone":"SHELF"}`, `{"zone":"Käse-Theke ${i}","x":"日本語"}`, `{"emoji":"📦 ${i}"}`, 'x'.repeat(i % 700), ''];
      texts.push(kinds[i % kinds.length]!);
    }
    texts.push('y'.repeat(100_000)); // larger than a quarter slab: a buffer of its own
    const bodies = texts.map((t) => slab.body(t));
    texts.forEach((t, i) => expect(bodies[i]!.equals(Buffer.from(t, 'utf8')), `body ${i}`).to.equal(true));
    // Many bodies share a slab (not one allocation each).
    const shared = new Set(bodies.map((b) => b.buffer));
    expect(shared.size).to.be.lessThan(bodies.length / 50);
  });
});
