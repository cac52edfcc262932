// Certificates made in the test run with the machine's `openssl` (nothing
// checked in): a self-signed certificate for 127.0.0.1 and its key, in a
// temporary directory removed at once.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface KeyAndCertificate {
  readonly key: string;
  readonly cert: string;
}

/** A fresh self-signed certificate (CN and IP SAN 127.0.0.1, EC P-256, valid a day) with its key, PEM. */
export function selfSigned(): KeyAndCertificate {
  const dir = mkdtempSync(join(tmpdir(), 'tagtrail-tls-'));
  try {
    const key = join(dir, 'key.pem');
    const cert = join(dir, 'cert.pem');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
    return { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const selfSignedPem = (): string => selfSigned().cert;
