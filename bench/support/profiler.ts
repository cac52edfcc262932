// CPU profiles of one phase of a benchmark (node --cpu-prof covers the whole
// process, set-up and the other phases included), through the inspector of
// the process itself; the event store child runs one on its parent's word
// (see server.ts).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Session } from 'node:inspector/promises';

/** Starts profiling this process; the function returned stops and writes `dir/<name>.cpuprofile`. */
export async function profilePhase(dir: string, name: string): Promise<() => Promise<string>> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return async () => {
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    const file = join(dir, `${name}.cpuprofile`);
    writeFileSync(file, JSON.stringify(profile));
    return file;
  };
}
