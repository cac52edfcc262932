// The shipped Grafana dashboard and Prometheus alert rules name only metrics
// (and labels) this code exposes: a renamed metric would otherwise leave an
// empty panel or an alert that can never fire.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { metricsRegistry, startProcessMetrics } from '../../src/core/metrics';
import { ROLES } from '../../src/config';

const read = (file: string): string => readFileSync(path.resolve(__dirname, '..', '..', 'deploy', file), 'utf8');
const dashboard = JSON.parse(read('grafana/tagtrail-dashboard.json')) as { panels: Array<{ title: string; targets: Array<{ expr: string }> }> };
const rules = read('prometheus/tagtrail-alerts.yml');

/** Sample names of a metric: histograms add _bucket, _sum and _count. */
async function exposedNames(): Promise<Map<string, readonly string[]>> {
  startProcessMetrics(ROLES);
  const names = new Map<string, readonly string[]>();
  for (const m of await metricsRegistry.getMetricsAsJSON()) {
    const declared = (metricsRegistry.getSingleMetric(m.name) as unknown as { labelNames?: string[] } | undefined)?.labelNames ?? [];
    const labels = [...new Set([...declared, ...m.values.flatMap((v) => Object.keys(v.labels)), 'roles', 'instance', 'job', 'le'])];
    const type = String(m.type);
    const suffixes = type === 'histogram' ? ['_bucket', '_sum', '_count'] : type === 'summary' ? ['', '_sum', '_count'] : [''];
    for (const s of suffixes) names.set(`${m.name}${s}`, labels);
  }
  return names;
}

/** Metric names in a PromQL expression (words followed by `{`, `[`, `)` or the end, that look like ours or the process metrics). */
const metricsIn = (expr: string): string[] => [...expr.matchAll(/\b((?:tagtrail|process|nodejs)_[a-z0-9_]+)/g)].map((m) => m[1]!);
/** Label names used in selectors (`name="..."`, `name=~"..."`) and groupings (`by (a, b)`). */
const labelsIn = (expr: string): string[] => [
  ...[...expr.matchAll(/([a-z_]+)\s*=~?\s*"/g)].map((m) => m[1]!),
  ...[...expr.matchAll(/\b(?:by|without)\s*\(([^)]*)\)/g)].flatMap((m) => m[1]!.split(',').map((l) => l.trim())),
];

describe('deploy/: Grafana dashboard and alert rules', () => {
  const exprs = dashboard.panels.flatMap((p) => p.targets.map((t) => ({ where: `panel "${p.title}"`, expr: t.expr })));
  const ruleExprs = [...rules.matchAll(/^\s*expr:\s*(\|?)(.*)$/gm)].map((m, i) => ({ where: `rule ${i + 1}`, expr: m[1] === '|' ? rules.slice(m.index + m[0].length).split(/\n\s*for:/)[0]! : m[2]! }));

  it('every panel and rule queries metrics that exist, by labels they have', async () => {
    const names = await exposedNames();
    const all = [...exprs, ...ruleExprs];
    expect(exprs.length).to.be.greaterThan(10);
    expect(ruleExprs.length).to.be.at.least(4);
    for (const { where, expr } of all) {
      const used = metricsIn(expr);
      // Prometheus's own `up` of the scrape target: no metric of ours.
      if (used.length === 0 && /^\s*up\{/.test(expr)) continue;
      expect(used.length, `${where}: ${expr}`).to.be.greaterThan(0);
      const known = used.flatMap((n) => names.get(n) ?? []);
      for (const n of used) expect(names.has(n), `${where}: unknown metric ${n}`).to.equal(true);
      for (const l of labelsIn(expr)) if (l !== '') expect(known, `${where}: label ${l} not on ${used.join(', ')}`).to.include(l);
    }
  });

  it('alerts on a reader not responding, engine lag over a minute, a stuck relay and an unreachable event store', () => {
    const alerts = [...rules.matchAll(/alert:\s*(\w+)/g)].map((m) => m[1]);
    expect(alerts).to.include.members(['TagtrailReaderNotResponding', 'TagtrailEngineLag', 'TagtrailRelayStuck', 'TagtrailEventStoreUnreachable']);
    expect(rules).to.match(/tagtrail_readers\{state="NOT_RESPONDING"\}/);
    expect(rules).to.match(/max\(tagtrail_engine_lag_seconds\) > 60/);
    expect(rules).to.match(/tagtrail_dependency_up\{dependency="eventStore"\}/);
  });
});
