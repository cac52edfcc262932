// The Dockerfile, read as text (there is no Docker engine to build it here):
// the image is built in stages, its final stage holds the compiled build and
// no sources, runs as an unprivileged user, and starts node itself, so the
// stop signal reaches the service once (docs/operations.md, "The image").
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const text = readFileSync(path.resolve(__dirname, '..', '..', 'Dockerfile'), 'utf8');
// Instructions, one per entry: comments dropped, continued lines joined.
const instructions = text
  .replace(/\\\n/g, ' ')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l !== '' && !l.startsWith('#'));
const stages: string[][] = [];
for (const line of instructions) {
  if (/^FROM\s/i.test(line)) stages.push([]);
  stages[stages.length - 1]?.push(line);
}
const final = stages[stages.length - 1] ?? [];
const named = (name: string): string[] => stages.find((s) => new RegExp(`^FROM\\s+\\S+\\s+AS\\s+${name}$`, 'i').test(s[0] ?? '')) ?? [];

describe('Dockerfile', () => {
  it('compiles in a build stage with the dev dependencies, and installs the production dependencies apart', () => {
    expect(named('build')).to.include.members(['RUN npm ci', 'RUN npm run build']);
    expect(named('deps').some((l) => /^RUN npm ci --omit=dev\b/.test(l))).to.equal(true);
  });

  it('ships dist/ and the production dependencies, not the sources', () => {
    expect(final).to.include.members(['COPY --from=deps /app/node_modules ./node_modules', 'COPY --from=build /app/dist ./dist']);
    // What COPY takes from the build context: every argument but the destination.
    const fromContext = final.filter((l) => /^COPY\s/i.test(l) && !l.includes('--from=')).flatMap((l) => l.split(/\s+/).slice(1, -1));
    expect(fromContext).to.include('console');
    expect(fromContext.filter((f) => f === '.' || /^(src|projections|scripts|test)(\/|$)/.test(f))).to.deep.equal([]);
  });

  it('runs as an unprivileged user that owns the data volume', () => {
    const users = final.filter((l) => /^USER\s/i.test(l)).map((l) => l.split(/\s+/)[1]);
    expect(users).to.have.length(1);
    expect(users[0]).to.not.be.oneOf(['root', '0']);
    const userAt = final.findIndex((l) => /^USER\s/i.test(l));
    expect(final.findIndex((l) => /^VOLUME\s/i.test(l))).to.be.greaterThan(userAt);
    expect(final.slice(0, userAt).some((l) => l.includes(`chown ${users[0] ?? ''}`) && l.includes('/data'))).to.equal(true);
  });

  it('starts node directly on the compiled entry point, with no npm or shell in between', () => {
    const cmd = final.filter((l) => /^(CMD|ENTRYPOINT)\s/i.test(l));
    expect(cmd).to.deep.equal(['CMD ["node", "dist/src/main.js"]']);
  });
});
