// Which readers an upgrade request takes (pure): the named readers (DEVICE)
// or every reader of the named facilities (FACILITY), minus the readers
// whose type the policy does not allow (skipped, with the reason). Unknown
// names, an unregistered image and a request left with no reader are 400s
// naming the field; a reader already in an active upgrade is a 409.
import * as E from 'fp-ts/Either';
import { badRequest, conflict, type ApiError, type FieldError } from '../core/http/errors';
import type { ReaderDefinition } from '../readerdefinitions';
import type { SoftwareImage, VersionIdentifier } from '../software';
import type { UpgradeRequest } from './codec';
import type { SkippedReader, UpgradeReaderPlan } from './events';
import type { ActiveUpgrade } from './listing';

export interface PlanContext {
  readonly readers: readonly ReaderDefinition[];
  readonly facilities: readonly string[];
  readonly images: readonly SoftwareImage[];
  readonly active: readonly ActiveUpgrade[];
  /** The versions each reader's agent last reported ({App, Firmware}). */
  readonly versions: ReadonlyMap<string, { App: string; Firmware: string }>;
}

export interface UpgradePlan {
  readonly readers: UpgradeReaderPlan[];
  readonly skipped: SkippedReader[];
  readonly image: { imageName: string; checksum: string };
}

/** The version of the image type a reader runs: firmware for FIRMWARE_READER, the agent (App) for CAP_SERVICE. */
export function runningVersion(v: { App: string; Firmware: string } | undefined, imageType: VersionIdentifier['imageType']): VersionIdentifier | null {
  if (v === undefined) return null;
  const version = imageType === 'FIRMWARE_READER' ? v.Firmware : v.App;
  return version === '' ? null : { version, imageType };
}

export function planUpgrade(req: UpgradeRequest, ctx: PlanContext): E.Either<ApiError, UpgradePlan> {
  const v = req.versionIdentifier;
  const image = ctx.images.find((i) => i.versionInfo.versionIdentifier.imageType === v.imageType && i.versionInfo.versionIdentifier.version === v.version);
  const errors: FieldError[] = [];
  if (image === undefined) errors.push({ path: 'body.versionIdentifier', reason: `no ${v.imageType} image of version ${JSON.stringify(v.version)} is registered` });

  let targeted: ReaderDefinition[] = [];
  const byName = new Map(ctx.readers.map((r) => [r.name, r]));
  req.target.values.forEach((name, i) => {
    if (req.target.type === 'DEVICE') {
      const r = byName.get(name);
      if (r === undefined) errors.push({ path: `body.target.values.${i}`, reason: `no reader definition named ${JSON.stringify(name)}` });
      else targeted.push(r);
    } else if (!ctx.facilities.includes(name)) errors.push({ path: `body.target.values.${i}`, reason: `no facility named ${JSON.stringify(name)}` });
  });
  if (req.target.type === 'FACILITY') targeted = ctx.readers.filter((r) => req.target.values.includes(r.facility));
  if (errors.length > 0) return E.left(badRequest('Invalid upgrade request', errors));
  targeted.sort((a, b) => a.name.localeCompare(b.name));

  const readers: UpgradeReaderPlan[] = [];
  const skipped: SkippedReader[] = [];
  for (const r of targeted) {
    if (r.type === null) skipped.push({ name: r.name, readerType: null, reason: 'the reader definition has no type' });
    else if (!req.policy.allowedReaderTypes.includes(r.type)) {
      skipped.push({ name: r.name, readerType: r.type, reason: `type ${r.type} is not in the policy's allowedReaderTypes` });
    } else readers.push({ name: r.name, readerType: r.type, previousVersion: runningVersion(ctx.versions.get(r.name), v.imageType) });
  }
  if (readers.length === 0) {
    const why = targeted.length === 0 ? 'the target holds no reader' : `every reader of the target was skipped: ${skipped.map((s) => `${s.name} (${s.reason})`).join('; ')}`;
    return E.left(badRequest(`Nothing to upgrade: ${why}`, [{ path: 'body.target', reason: why }]));
  }
  const busy = readers.flatMap((r) => ctx.active.filter((a) => a.readerNames.includes(r.name)).map((a) => `${r.name} (upgrade ${a.id})`));
  if (busy.length > 0) return E.left(conflict(`readers are already in an active upgrade: ${busy.join(', ')}`, [{ path: 'body.target', reason: 'readers in an active upgrade' }]));
  return E.right({ readers, skipped, image: { imageName: image?.versionInfo.imageName ?? '', checksum: image?.versionInfo.checksum ?? '' } });
}
