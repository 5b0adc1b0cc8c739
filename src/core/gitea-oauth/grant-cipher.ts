// Encryption at rest of the person's Gitea tokens: AES-256-GCM, a fresh 96-bit IV per value,
// the 128-bit tag checked on every read. Each ciphertext names the key that made it (key id,
// stored in its row) and is bound by additional authenticated data to its row and field, so a
// value copied into another row or column fails to decrypt. Several keys can be loaded at once:
// the current one encrypts, the previous ones only decrypt, which is what makes a key rotation
// possible without downtime (see docs/adr/0009-gitea-sign-in-and-grants.md).
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;
const FORMAT = 'v1';
// Separates the encryption key from the key id (both come from the configured secret).
const HKDF_INFO = 'aegis-gitea-mcp/gitea-grant/aes-256-gcm/v1';

export class GrantDecryptionError extends Error {
  constructor(
    message: string,
    readonly keyId: string | null,
  ) {
    super(message);
    this.name = 'GrantDecryptionError';
  }
}

type LoadedKey = { id: string; key: Buffer };

/** Decodes a configured key (64 hex characters or base64/base64url of 32 bytes). */
export function decodeKey(value: string): Buffer {
  const trimmed = value.trim();
  const bytes = /^[0-9a-fA-F]{64}$/.test(trimmed)
    ? Buffer.from(trimmed, 'hex')
    : Buffer.from(trimmed.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (bytes.length !== 32)
    throw new Error('an encryption key must be 32 bytes (64 hex characters or base64)');
  return bytes;
}

/** A short public fingerprint of a key: stored with each row, safe to log. */
export function keyIdOf(secret: Buffer): string {
  return createHash('sha256').update('aegis-key-id\0').update(secret).digest('hex').slice(0, 16);
}

function load(value: string): LoadedKey {
  const secret = decodeKey(value);
  const key = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), HKDF_INFO, 32));
  return { id: keyIdOf(secret), key };
}

export type Sealed = { keyId: string; value: string };

export class GrantCipher {
  private readonly current: LoadedKey;
  private readonly byId = new Map<string, LoadedKey>();

  /** `currentKey` encrypts; `previousKeys` still decrypt rows written before a rotation. */
  constructor(currentKey: string, previousKeys: readonly string[] = []) {
    this.current = load(currentKey);
    this.byId.set(this.current.id, this.current);
    for (const value of previousKeys) {
      const loaded = load(value);
      if (!this.byId.has(loaded.id)) this.byId.set(loaded.id, loaded);
    }
  }

  get currentKeyId(): string {
    return this.current.id;
  }

  get keyIds(): string[] {
    return [...this.byId.keys()];
  }

  /** Encrypts `plaintext` for the row/field named by `context` (e.g. "gitea_grants:<id>:access"). */
  seal(plaintext: string, context: string): Sealed {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.current.key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(aad(this.current.id, context));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return {
      keyId: this.current.id,
      value: `${FORMAT}.${Buffer.concat([iv, tag, body]).toString('base64url')}`,
    };
  }

  /** Decrypts a value sealed with any loaded key; throws GrantDecryptionError (never the plaintext). */
  open(sealed: Sealed, context: string): string {
    const key = this.byId.get(sealed.keyId);
    if (!key) throw new GrantDecryptionError(`no loaded key has id ${sealed.keyId}`, sealed.keyId);
    const [format, encoded] = sealed.value.split('.', 2);
    if (format !== FORMAT || !encoded)
      throw new GrantDecryptionError('unknown ciphertext format', sealed.keyId);
    const raw = Buffer.from(encoded, 'base64url');
    if (raw.length < IV_BYTES + TAG_BYTES)
      throw new GrantDecryptionError('ciphertext too short', sealed.keyId);
    const decipher = createDecipheriv('aes-256-gcm', key.key, raw.subarray(0, IV_BYTES), {
      authTagLength: TAG_BYTES,
    });
    decipher.setAAD(aad(key.id, context));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    try {
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
        'utf8',
      );
    } catch {
      throw new GrantDecryptionError('ciphertext failed authentication (tampered, or wrong key/row)', key.id);
    }
  }

  /** Whether a value should be re-encrypted with the current key (rotation). */
  isStale(keyId: string): boolean {
    return keyId !== this.current.id;
  }
}

function aad(keyId: string, context: string): Buffer {
  return Buffer.from(`${FORMAT}\0${keyId}\0${context}`, 'utf8');
}
