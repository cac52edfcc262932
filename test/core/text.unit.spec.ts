import { expect } from 'chai';
import { textProblem } from '../../src/core/text';

// What text is, spelled out independently of the implementation's fast path.
// eslint-disable-next-line no-control-regex
const controlOtherThanTabAndBreaks = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const isText = (s: string): boolean => !controlOtherThanTabAndBreaks.test(s) && !loneSurrogate.test(s);

describe('textProblem', () => {
  it('accepts exactly the strings without control characters (but tab and line breaks) and lone surrogates, for every code unit', () => {
    for (let c = 0; c <= 0xffff; c++) {
      const ch = String.fromCharCode(c);
      for (const s of [ch, `E2801100${ch}`, `${ch}2026-11-29T04:00:00.000Z`]) {
        expect(textProblem(s) === undefined, `U+${c.toString(16)} in ${JSON.stringify(s)}`).to.equal(isText(s));
      }
    }
  });

  it('accepts surrogate pairs and names what it refuses', () => {
    expect(textProblem('tag \u{1F600} here')).to.equal(undefined);
    expect(textProblem('line\tone\r\nline two')).to.equal(undefined);
    expect(textProblem('a\uD83D')).to.match(/lone surrogate/);
    expect(textProblem('\uDE00a')).to.match(/lone surrogate/);
    expect(textProblem('ab\u0007')).to.equal('must not contain control characters (U+0007 at 2)');
    expect(textProblem('\u009F')).to.equal('must not contain control characters (U+009F at 0)');
  });
});
