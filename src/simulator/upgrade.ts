// How a simulated agent performs an UPGRADE command, like a reader does:
// it reports UPDATING_FIRMWARE (check-in state, so reader health shows it),
// "downloads" the image and verifies its SHA-256 against the command's
// checksum (the simulator has no image bytes: a well-formed checksum passes
// unless a CHECKSUM failure is injected, which plays a corrupt download),
// installs for the rest of the configured duration, then reports its new
// version (LIFECYCLE VERSION_UPDATE) and the command DONE. Injected
// failures: CHECKSUM (SOFTWARE_FAULT CHECKSUM after the download, command
// FAILED) and UPGRADE_STATUS (HARDWARE_FAULT UPGRADE_STATUS at the end of
// the install, command FAILED, version unchanged).
import { createHash } from 'node:crypto';

export const UPGRADE_FAULTS = ['CHECKSUM', 'UPGRADE_STATUS'] as const;
export type UpgradeFault = (typeof UPGRADE_FAULTS)[number];

/** Share of the upgrade spent downloading (and verifying) before installing. */
export const DOWNLOAD_SHARE = 0.2;

export interface UpgradeArgs {
  readonly version: string;
  readonly imageType: 'FIRMWARE_READER' | 'CAP_SERVICE';
  readonly checksum: string | null;
}

/** The UPGRADE args as the simulator needs them, or why they cannot be used. */
export function upgradeArgsOf(args: Record<string, unknown>): UpgradeArgs | string {
  const version = args['versionIdentifier'];
  if (typeof version !== 'string' || version === '') return 'no versionIdentifier in the UPGRADE command';
  const imageType = args['imageType'] === 'CAP_SERVICE' ? 'CAP_SERVICE' : 'FIRMWARE_READER';
  const checksum = typeof args['checksum'] === 'string' ? args['checksum'].toLowerCase() : null;
  return { version, imageType, checksum };
}

/** SHA-256 hex of what was "downloaded": the expected digest, or (corrupt download) the digest of something else. */
export function downloadedDigest(a: UpgradeArgs, corrupt: boolean): string {
  if (a.checksum !== null && !corrupt) return a.checksum;
  return createHash('sha256').update(`corrupt image ${a.imageType} ${a.version}`).digest('hex');
}

export const verifyChecksum = (a: UpgradeArgs, digest: string): boolean => a.checksum !== null && /^[0-9a-f]{64}$/.test(a.checksum) && a.checksum === digest;
