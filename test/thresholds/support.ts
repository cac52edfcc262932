// Helpers of the thresholds e2e tests.
import type { TestApp } from '../support/app';

/** A reader definition in `facility`, created through its REST route. */
export async function seedReaderDefinition(app: TestApp, name: string, facility: string): Promise<void> {
  const res = await app.request('POST', '/configuration/v1/readerDefinitions/create', { body: { name, facility } });
  if (res.status !== 200) throw new Error(`reader definition ${name}: ${res.status} ${JSON.stringify(res.body)}`);
}

export const antennaConfig = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  side: 'LEFT',
  readerType: 'XARRAY',
  readerArrangement: 'OVERHEAD',
  in: [{ antennaId: 1 }],
  out: [{ antennaId: 2 }],
  ...extra,
});
