// Secrets tagtrail must present to someone else in clear, so they cannot be
// hashed like our own users' passwords and agent secrets: the password of an
// Impinj IoT reader (HTTP Basic), the credentials of an EPCIS repository
// (HTTP Basic or a bearer token) and the SNMP community. They are stored
// sealed (AES-256-GCM) with a key that is never in the event log nor in
// Redis: READER_SECRET_KEY (32 bytes, base64) when set, else a key file in
// DATA_DIR created on first start (docs/operations.md, "Secrets tagtrail
// presents to others").
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const PREFIX = 'sealed:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;
export const SECRET_KEY_FILE = 'reader-secret.key';

export interface SecretBox {
  /** The sealed form of `clear` (a fresh IV each time). */
  seal(clear: string): string;
  /**
   * The clear secret of a sealed one; a value stored before sealing existed is returned as it is.
   * Throws a SecretUnusable when it was sealed with another key (or altered).
   */
  open(stored: string): string;
}

/** A sealed secret this process cannot open: another key sealed it, or it was altered. */
export class SecretUnusable extends Error {
  override name = 'SecretUnusable';
  constructor() {
    super('a stored secret cannot be opened with this process\'s secret key (READER_SECRET_KEY or DATA_DIR/reader-secret.key): give every process the same key, or set the secret again');
  }
}

export const isSealed = (stored: string): boolean => stored.startsWith(PREFIX);

export function secretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new Error('the reader secret key must be 32 bytes');
  return {
    seal(clear) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(clear, 'utf8'), cipher.final()]);
      return `${PREFIX}${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
    },
    open(stored) {
      if (!isSealed(stored)) return stored;
      const raw = Buffer.from(stored.slice(PREFIX.length), 'base64url');
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
        decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
        return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
      } catch {
        throw new SecretUnusable();
      }
    },
  };
}

/**
 * The key: `configured` (base64 of 32 bytes) when given, else `<dataDir>/reader-secret.key`,
 * written (mode 0600) by the first process that needs it. Every process that stores or sends
 * these secrets (roles api, readers, relay) must see the same key: share DATA_DIR or set
 * READER_SECRET_KEY.
 */
export function loadSecretKey(dataDir: string, configured: string | undefined): Buffer {
  if (configured !== undefined) {
    const key = Buffer.from(configured, 'base64');
    if (key.length !== 32) throw new Error('Invalid configuration: READER_SECRET_KEY must be 32 bytes in base64');
    return key;
  }
  const file = path.join(dataDir, SECRET_KEY_FILE);
  try {
    return keyFromFile(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  mkdirSync(dataDir, { recursive: true });
  // Written whole under another name, then linked: two processes starting at once keep the
  // first one's key, and none reads a half-written file.
  const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(draft, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
  try {
    linkSync(draft, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    unlinkSync(draft);
  }
  return keyFromFile(file);
}

function keyFromFile(file: string): Buffer {
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length !== 32) throw new Error(`${file} must hold 32 bytes in base64`);
  return key;
}
