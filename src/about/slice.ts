// GET /about/v1/info: what is running (version, commit, uptime, roles, data
// directory, connection targets without passwords), for the console's About
// panel and for support questions. Any authenticated role may read it.
import { execFileSync } from 'node:child_process';
import type { Slice } from '../slice';
import { API_VERSION } from '../core/http/routes';
import { APP_ROOT, APP_VERSION } from '../core/app-root';

let commit: string | null | undefined;
/** GIT_COMMIT (set by image builds), else the checkout's HEAD, else null; looked up once. */
function currentCommit(configured: string | undefined): string | null {
  if (configured !== undefined) return configured;
  if (commit !== undefined) return commit;
  try {
    commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: APP_ROOT, stdio: ['ignore', 'pipe', 'ignore'], timeout: 2000 }).toString().trim() || null;
  } catch {
    commit = null;
  }
  return commit;
}

const text = { type: 'string' };
const nullableText = { type: 'string', nullable: true };
const ABOUT_SCHEMA = {
  type: 'object',
  required: ['version', 'apiVersion', 'commit', 'node', 'startedAt', 'uptimeSeconds', 'roles', 'dataDir', 'rootPath', 'targets'],
  additionalProperties: false,
  properties: {
    version: text,
    apiVersion: text,
    commit: { ...nullableText, description: 'GIT_COMMIT, else the checkout\'s HEAD, else null' },
    node: text,
    startedAt: { ...nullableText, format: 'date-time' },
    uptimeSeconds: { type: 'integer', minimum: 0 },
    roles: { type: 'array', items: text },
    dataDir: nullableText,
    rootPath: nullableText,
    targets: {
      type: 'object', nullable: true, additionalProperties: false, required: ['eventStore', 'redis', 'amqp'],
      description: 'connection URLs, passwords replaced by ***',
      properties: { eventStore: text, redis: text, amqp: text },
    },
  },
};

export const aboutSlice: Slice = {
  name: 'about',
  register(table, deps) {
    table.add(
      {
        method: 'get',
        operationId: 'showInfo',
        path: '/about/v1/info',
        roles: ['DataReader', 'JobRunner', 'ConfigManager'],
        tag: 'About',
        summary: 'Version, commit, uptime, roles, data directory and connection targets (no passwords) of this process',
        responses: { 200: { description: 'what is running', schema: ABOUT_SCHEMA } },
      },
      async (ctx) => {
        const about = deps.about;
        ctx.set('Cache-Control', 'no-store');
        ctx.body = {
          version: APP_VERSION,
          apiVersion: API_VERSION,
          commit: currentCommit(deps.config?.gitCommit),
          node: process.version,
          startedAt: about?.startedAt.toISOString() ?? null,
          uptimeSeconds: Math.round(process.uptime()),
          roles: about?.roles ?? [],
          dataDir: about?.dataDir ?? null,
          rootPath: about?.rootPath ?? null,
          targets: about?.targets ?? null,
        };
      },
    );
  },
};
