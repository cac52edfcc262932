// Command-line options of `npm run simulate`, parsed with node:util
// parseArgs and validated into SimOptions; every problem is reported with
// the option's name.
import { parseArgs } from 'node:util';
import { FAMILIES, type Family } from './layout';
import { FAULT_KINDS, type FaultKind } from './scenario';
import { UPGRADE_FAULTS, type UpgradeFault } from './upgrade';

export type ProgressMode = 'text' | 'json' | 'none';
/** How the simulated readers talk to tagtrail: as agents calling the agent API, or as LLRP / Impinj IoT-interface readers tagtrail connects to. */
export const PROTOCOLS = ['agent', 'llrp', 'iot'] as const;
export type Protocol = (typeof PROTOCOLS)[number];

export interface SimOptions {
  readonly url: string;
  readonly user: string;
  readonly password: string;
  /** null: as many as the scenario has, or as many existing reader definitions as the facility has (generated layout: 4). */
  readonly readers: number | null;
  readonly families: readonly Family[];
  readonly facility: string;
  readonly tags: number;
  readonly seed: number;
  /** Seconds; 0 = until interrupted (or the scenario's duration). */
  readonly duration: number;
  readonly demo: boolean;
  readonly startJob: boolean;
  readonly recipe: string | null;
  readonly scenario: string | null;
  /** Probability per report (per check-in for not-responding) of each fault. */
  readonly faults: Readonly<Partial<Record<FaultKind, number>>>;
  readonly timeScale: number;
  /** Overrides the check-in interval the service answers (a demo and test aid); null = the service's. */
  readonly checkinSeconds: number | null;
  readonly progress: ProgressMode;
  readonly progressSeconds: number;
  /** Prefix of the names the demo configuration creates. */
  readonly prefix: string;
  /** How long an UPGRADE command takes (seconds); null = the scenario's, else 90. */
  readonly upgradeSeconds: number | null;
  /** Failures injected into readers' next upgrades, in order. */
  readonly upgradeFailures: ReadonlyArray<{ readonly reader: string; readonly fault: UpgradeFault }>;
  readonly protocol: Protocol;
  /** llrp/iot: first port (reader i listens on port + i); 0 = free ports (or the definitions' ports when playing existing LLRP readers). */
  readonly llrpPort: number;
  /** llrp/iot: the address readers listen on and reader definitions name. */
  readonly llrpHost: string;
  /** iot: how the readers deliver their events (the demo definitions' `delivery`). */
  readonly iotDelivery: 'STREAM' | 'MQTT' | 'WEBHOOK';
  readonly help: boolean;
}

export const DEFAULT_FAULT_RATES: Record<FaultKind, number> = {
  network: 0.02,
  'dropped-reads': 0.02,
  ntp: 0.005,
  restart: 0.005,
  'not-responding': 0.005,
};

export class OptionsError extends Error {
  override name = 'OptionsError';
}

export const USAGE = `Usage: npm run simulate -- [options]

Plays reader agents against tagtrail's agent API (docs/simulator.md).

  --url URL              service root (default http://127.0.0.1:8080/itemsense)
  --user NAME            admin user (default admin)
  --password PW          its password (default admindefault)
  --readers N            readers to play (default: the scenario's, else 4)
  --families LIST        reader families, round robin: XARRAY,XSPAN,XPORTAL,SPEEDWAY (default all)
  --facility NAME        facility (default DEFAULT)
  --tags N               tags in a generated world (default 50)
  --seed S               PRNG seed, integer (default 1)
  --duration SECONDS     stop after this long; 0 = until Ctrl-C (default 0)
  --demo                 create the demo configuration first (facility, zone map,
                         reader definitions, reader configurations, recipes)
  --start-job            start a job with --recipe (and stop it at the end)
  --recipe NAME          recipe of --start-job (default <prefix>inventory)
  --scenario FILE        play a scenario file (layout, readers, tags, timeline)
  --faults LIST          inject faults: network,dropped-reads,ntp,restart,not-responding
                         each optionally =RATE (probability per report; per check-in
                         for not-responding), e.g. network=0.05,restart
  --time-scale X         world time runs X times faster than real time (default 1)
  --checkin-seconds S    check in every S seconds instead of the service's interval
  --progress MODE        text (stderr), json (log line) or none (default text on a terminal, else json)
  --progress-seconds S   seconds between progress lines (default 5)
  --prefix P             prefix of created names (default sim-)
  --upgrade-seconds S    how long an UPGRADE command takes (default: the scenario's, else 90)
  --upgrade-failures LIST  fail readers' next upgrades: READER=CHECKSUM or READER=UPGRADE_STATUS,
                         comma-separated (a reader named twice fails its next two upgrades)
  --protocol P           agent (readers call the agent API), llrp (each reader is an LLRP
                         reader on a TCP port of its own) or iot (each reader an Impinj
                         IoT-interface reader; with --demo); tagtrail's readers role connects (default agent)
  --llrp-port N          llrp/iot: first port, reader i on N+i (default 0: free ports, or the
                         reader definitions' own ports without --demo)
  --llrp-host H          llrp/iot: address the readers listen on and their definitions name (default 127.0.0.1)
  --iot-delivery D       iot: STREAM, MQTT or WEBHOOK (default STREAM)
  --help                 this text`;

function int(name: string, raw: string | undefined, min: number, fallback: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!/^-?\d+$/.test(raw.trim()) || !Number.isSafeInteger(n) || n < min) throw new OptionsError(`--${name} must be an integer >= ${min}, got "${raw}"`);
  return n;
}

function num(name: string, raw: string | undefined, check: (n: number) => boolean, what: string, fallback: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n) || !check(n)) throw new OptionsError(`--${name} must be ${what}, got "${raw}"`);
  return n;
}

export function parseFaults(raw: string | undefined): Partial<Record<FaultKind, number>> {
  const out: Partial<Record<FaultKind, number>> = {};
  if (raw === undefined) return out;
  for (const part of raw.split(',').map((p) => p.trim()).filter(Boolean)) {
    const [name, rate] = part.split('=', 2) as [string, string | undefined];
    if (!(FAULT_KINDS as readonly string[]).includes(name)) throw new OptionsError(`--faults: unknown fault "${name}" (one of ${FAULT_KINDS.join(', ')})`);
    const kind = name as FaultKind;
    out[kind] = num(`faults ${kind}`, rate, (n) => n >= 0 && n <= 1, 'a probability between 0 and 1', DEFAULT_FAULT_RATES[kind]);
  }
  return out;
}

export function parseUpgradeFailures(raw: string | undefined): Array<{ reader: string; fault: UpgradeFault }> {
  if (raw === undefined) return [];
  return raw.split(',').map((p) => p.trim()).filter(Boolean).map((part) => {
    const i = part.lastIndexOf('=');
    const reader = i > 0 ? part.slice(0, i).trim() : '';
    const fault = i > 0 ? part.slice(i + 1).trim().toUpperCase() : '';
    if (reader === '' || !(UPGRADE_FAULTS as readonly string[]).includes(fault)) {
      throw new OptionsError(`--upgrade-failures: expected READER=${UPGRADE_FAULTS.join('|')}, got "${part}"`);
    }
    return { reader, fault: fault as UpgradeFault };
  });
}

type ArgValues = Record<string, string | boolean | undefined>;

/** The raw values of the command line; unknown options and positionals are refused. */
function readArgs(argv: readonly string[]): ArgValues {
  try {
    return parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        url: { type: 'string' }, user: { type: 'string' }, password: { type: 'string' },
        readers: { type: 'string' }, families: { type: 'string' }, facility: { type: 'string' },
        tags: { type: 'string' }, seed: { type: 'string' }, duration: { type: 'string' },
        demo: { type: 'boolean' }, 'start-job': { type: 'boolean' }, recipe: { type: 'string' },
        scenario: { type: 'string' }, faults: { type: 'string' }, 'time-scale': { type: 'string' }, 'checkin-seconds': { type: 'string' },
        progress: { type: 'string' }, 'progress-seconds': { type: 'string' }, prefix: { type: 'string' },
        'upgrade-seconds': { type: 'string' }, 'upgrade-failures': { type: 'string' },
        protocol: { type: 'string' }, 'llrp-port': { type: 'string' }, 'llrp-host': { type: 'string' }, 'iot-delivery': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (err) {
    throw new OptionsError((err as Error).message);
  }
}

function parseUrl(raw: string | undefined): string {
  const url = raw ?? 'http://127.0.0.1:8080/itemsense';
  try {
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('not http');
  } catch {
    throw new OptionsError(`--url must be an http(s) URL, got "${url}"`);
  }
  return url;
}

function parseFamilies(raw: string | undefined): Family[] {
  const families = (raw ?? FAMILIES.join(',')).split(',').map((f) => f.trim().toUpperCase()).filter(Boolean);
  for (const f of families) {
    if (!(FAMILIES as readonly string[]).includes(f)) throw new OptionsError(`--families: unknown family "${f}" (one of ${FAMILIES.join(', ')})`);
  }
  if (families.length === 0) throw new OptionsError('--families must name at least one family');
  return families as Family[];
}

/** How the readers talk to tagtrail: --protocol and the options of the llrp and iot protocols. */
function parseProtocol(values: ArgValues): Pick<SimOptions, 'protocol' | 'llrpPort' | 'iotDelivery'> {
  const str = (k: string): string | undefined => values[k] as string | undefined;
  const protocol = str('protocol') ?? 'agent';
  if (!(PROTOCOLS as readonly string[]).includes(protocol)) throw new OptionsError(`--protocol must be ${PROTOCOLS.join(' or ')}, got "${protocol}"`);
  const llrpPort = int('llrp-port', str('llrp-port'), 0, 0);
  if (llrpPort > 65535) throw new OptionsError(`--llrp-port must be a port 0-65535, got "${str('llrp-port')}"`);
  const iotDelivery = (str('iot-delivery') ?? 'STREAM').toUpperCase();
  if (iotDelivery !== 'STREAM' && iotDelivery !== 'MQTT' && iotDelivery !== 'WEBHOOK') throw new OptionsError(`--iot-delivery must be STREAM, MQTT or WEBHOOK, got "${str('iot-delivery')}"`);
  if (protocol === 'iot' && values['demo'] !== true) throw new OptionsError('--protocol iot needs --demo (it writes the readers\' credentials into their definitions)');
  return { protocol: protocol as Protocol, llrpPort, iotDelivery };
}

export function parseOptions(argv: readonly string[], isTty = false): SimOptions {
  const values = readArgs(argv);
  const str = (k: string): string | undefined => values[k] as string | undefined;
  const url = parseUrl(str('url'));
  const families = parseFamilies(str('families'));
  const progress = str('progress') ?? (isTty ? 'text' : 'json');
  if (progress !== 'text' && progress !== 'json' && progress !== 'none') throw new OptionsError(`--progress must be text, json or none, got "${progress}"`);
  const facility = str('facility') ?? 'DEFAULT';
  if (!facility.trim()) throw new OptionsError('--facility must not be blank');
  const prefix = str('prefix') ?? 'sim-';
  const startJob = values['start-job'] === true;
  const recipe = str('recipe') ?? null;
  if (recipe !== null && !startJob) throw new OptionsError('--recipe only matters with --start-job');
  const { protocol, llrpPort, iotDelivery } = parseProtocol(values);
  return {
    url: url.replace(/\/+$/, ''),
    user: str('user') ?? 'admin',
    password: str('password') ?? 'admindefault',
    readers: str('readers') === undefined ? null : int('readers', str('readers'), 1, 4),
    families,
    facility,
    tags: int('tags', str('tags'), 0, 50),
    seed: int('seed', str('seed'), 0, 1),
    duration: num('duration', str('duration'), (n) => n >= 0, 'a number of seconds >= 0', 0),
    demo: values['demo'] === true,
    startJob,
    recipe,
    scenario: str('scenario') ?? null,
    faults: parseFaults(str('faults')),
    timeScale: num('time-scale', str('time-scale'), (n) => n > 0 && n <= 1000, 'a number > 0 and <= 1000', 1),
    checkinSeconds: str('checkin-seconds') === undefined ? null : num('checkin-seconds', str('checkin-seconds'), (n) => n >= 0.5, 'a number of seconds >= 0.5', 10),
    progress,
    progressSeconds: num('progress-seconds', str('progress-seconds'), (n) => n > 0, 'a number of seconds > 0', 5),
    prefix,
    upgradeSeconds: str('upgrade-seconds') === undefined ? null : num('upgrade-seconds', str('upgrade-seconds'), (n) => n >= 0, 'a number of seconds >= 0', 90),
    upgradeFailures: parseUpgradeFailures(str('upgrade-failures')),
    protocol,
    llrpPort,
    llrpHost: str('llrp-host') ?? '127.0.0.1',
    iotDelivery,
    help: values['help'] === true,
  };
}
