// How long a reader may take to report its UPGRADE command before it counts
// as FAILED (the published interface's UPGRADE_STATUS "upgrade error or
// time-out"): UPGRADE_READER_TIMEOUT_SECONDS, parsed in src/config.ts.
export interface UpgradeSettings {
  readonly readerTimeoutMs: number;
  /**
   * Where the images are served (UPGRADE_IMAGE_BASE_URL): an UPGRADE command then carries
   * `imageUrl` = this URL + "/" + the image name, which readers driven over the IoT interface
   * need (tagtrail uploads the image to them); agents may use it too.
   */
  readonly imageBaseUrl?: string | undefined;
}

export const DEFAULT_UPGRADE_SETTINGS: UpgradeSettings = { readerTimeoutMs: 1_800_000 };

/** The URL of an image under the base URL, or undefined without one. */
export const imageUrlOf = (s: UpgradeSettings, imageName: string): string | undefined =>
  s.imageBaseUrl === undefined ? undefined : `${s.imageBaseUrl.replace(/\/+$/, '')}/${encodeURIComponent(imageName)}`;
