// A port another process holds is the usual mistake of a second instance
// started by accident. Node and gRPC report it as a bare "address already in
// use"; this names the setting, the port and, where the system tells us
// (Linux /proc, same user), the process that holds it.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

export function isAddressInUse(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  return (err as NodeJS.ErrnoException).code === 'EADDRINUSE' || /EADDRINUSE|address already in use/i.test(err.message);
}

/** Socket inodes listening on `port` (TCP, IPv4 and IPv6), from /proc/net. */
function listeningInodes(port: number): Set<string> {
  const inodes = new Set<string>();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      const local = cols[1];
      // State 0A is LISTEN; column 9 is the socket inode.
      if (local === undefined || cols[3] !== '0A' || cols[9] === undefined) continue;
      if (Number.parseInt(local.slice(local.lastIndexOf(':') + 1), 16) === port) inodes.add(cols[9]);
    }
  }
  return inodes;
}

/** "pid 1234 (node src/main.ts)" for the process listening on `port`, or null when it cannot be seen. */
export function portHolder(port: number): string | null {
  const inodes = listeningInodes(port);
  if (inodes.size === 0) return null;
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return null;
  }
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // another user's process, or gone
    }
    for (const fd of fds) {
      let target: string;
      try {
        target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        continue;
      }
      const m = /^socket:\[(\d+)\]$/.exec(target);
      if (m?.[1] !== undefined && inodes.has(m[1])) {
        let cmd = '';
        try {
          cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
        } catch {
          // the command line is a nicety
        }
        return cmd ? `pid ${pid} (${cmd.slice(0, 200)})` : `pid ${pid}`;
      }
    }
  }
  return null;
}

/**
 * The error to report when binding `host:port` failed because it is taken:
 * which setting chose the port, and who holds it.
 */
export function addressInUseError(what: string, setting: string, host: string, port: number): Error {
  const holder = portHolder(port);
  const by = holder ? `by ${holder}` : 'by another process (not visible to this user)';
  return new Error(
    `${what} cannot listen on ${host}:${port}: the port is already in use ${by}. ` +
      `Is another tagtrail running? Stop it, or choose another port with ${setting}.`,
  );
}

/** `listening`, with an "address in use" failure replaced by addressInUseError. */
export async function explainAddressInUse<T>(listening: Promise<T>, what: string, setting: string, host: string, port: number): Promise<T> {
  try {
    return await listening;
  } catch (err) {
    if (isAddressInUse(err)) throw addressInUseError(what, setting, host, port);
    throw err;
  }
}
