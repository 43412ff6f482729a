// Secrets at rest. What must be used again (credentials of imported functions,
// signing secrets) is sealed with AES-256-GCM under the master key; what must
// only be compared (API keys, admin token, client secrets) is stored as a hash.
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from './config.ts';

const SEALED_PREFIX = 'v1';

export interface SecretBox {
  seal(plaintext: string, context?: string): string;
  open(sealed: string, context?: string): string;
  /** A key derived from the master key for one purpose (e.g. signing tokens). */
  deriveKey(purpose: string): Buffer;
}

/** Accepts 32 bytes as 64 hex characters or base64. */
export function parseMasterKey(raw: string): Buffer {
  const trimmed = raw.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
  if (key.length !== 32) throw new ConfigError('PLATFORM_MASTER_KEY must be 32 bytes, as 64 hex characters or base64');
  return key;
}

/**
 * The master key comes from PLATFORM_MASTER_KEY. On the embedded default (no
 * DATABASE_URL) one is generated into the data dir on first start; against an
 * external database it is required, because losing it loses every sealed secret.
 */
export async function loadMasterKey(configured: string | undefined, dataDir: string, embedded: boolean): Promise<Buffer> {
  if (configured) return parseMasterKey(configured);
  if (!embedded) throw new ConfigError('PLATFORM_MASTER_KEY is required when DATABASE_URL is set (32 bytes, hex or base64)');
  const file = path.join(dataDir, 'master.key');
  try {
    return parseMasterKey(await readFile(file, 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  await mkdir(dataDir, { recursive: true });
  const key = randomBytes(32);
  await writeFile(file, key.toString('hex') + '\n', { mode: 0o600, flag: 'wx' });
  return key;
}

export function createSecretBox(masterKey: Buffer): SecretBox {
  return {
    seal(plaintext, context = '') {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', masterKey, iv);
      cipher.setAAD(Buffer.from(context));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return [SEALED_PREFIX, iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join(':');
    },
    open(sealed, context = '') {
      const [version, iv, tag, body] = sealed.split(':');
      if (version !== SEALED_PREFIX || !iv || !tag || body === undefined) throw new Error('Unreadable sealed secret');
      const decipher = createDecipheriv('aes-256-gcm', masterKey, Buffer.from(iv, 'base64'));
      decipher.setAAD(Buffer.from(context));
      decipher.setAuthTag(Buffer.from(tag, 'base64'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
    },
    deriveKey(purpose) {
      return createHmac('sha256', masterKey).update(`platform:${purpose}`).digest();
    },
  };
}

/** For high-entropy generated secrets, a plain SHA-256 is a sufficient verifier. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function secretMatches(secret: string, expectedHash: string): boolean {
  const actual = Buffer.from(hashSecret(secret), 'hex');
  const expected = Buffer.from(expectedHash, 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('hex');
}
