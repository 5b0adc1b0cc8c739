// AES-256-GCM at rest for Gitea tokens: round trip, tampering, wrong key, wrong row, rotation.
import { randomBytes } from 'node:crypto';
import { GrantCipher, GrantDecryptionError, keyIdOf, decodeKey } from '../../../src/core/gitea-oauth';

const hexKey = (): string => randomBytes(32).toString('hex');
const b64Key = (): string => randomBytes(32).toString('base64');

describe('GrantCipher', () => {
  const token = 'gto_' + 'a'.repeat(40);

  it('round-trips and never leaves the plaintext in the ciphertext', () => {
    const cipher = new GrantCipher(hexKey());
    const sealed = cipher.seal(token, 'gitea_grants:g1:access');
    expect(sealed.keyId).toBe(cipher.currentKeyId);
    expect(sealed.value).not.toContain(token);
    expect(Buffer.from(sealed.value.slice(3), 'base64url').toString('latin1')).not.toContain(token);
    expect(cipher.open(sealed, 'gitea_grants:g1:access')).toBe(token);
  });

  it('uses a fresh IV for every value', () => {
    const cipher = new GrantCipher(b64Key());
    const a = cipher.seal(token, 'ctx');
    const b = cipher.seal(token, 'ctx');
    expect(a.value).not.toBe(b.value);
    expect(a.value.slice(3, 19)).not.toBe(b.value.slice(3, 19));
  });

  it('refuses a tampered ciphertext (any flipped byte: IV, tag or body)', () => {
    const cipher = new GrantCipher(hexKey());
    const sealed = cipher.seal(token, 'ctx');
    const raw = Buffer.from(sealed.value.slice(3), 'base64url');
    for (const index of [0, 11, 12, 27, 28, raw.length - 1]) {
      const copy = Buffer.from(raw);
      copy[index] = copy[index]! ^ 0x01;
      const tampered = { keyId: sealed.keyId, value: `v1.${copy.toString('base64url')}` };
      expect(() => cipher.open(tampered, 'ctx')).toThrow(GrantDecryptionError);
    }
    const truncated = { keyId: sealed.keyId, value: sealed.value.slice(0, 20) };
    expect(() => cipher.open(truncated, 'ctx')).toThrow(GrantDecryptionError);
    expect(() => cipher.open({ keyId: sealed.keyId, value: 'v2.' + sealed.value.slice(3) }, 'ctx')).toThrow(
      GrantDecryptionError,
    );
  });

  it('refuses a value moved to another row or field (AAD binding)', () => {
    const cipher = new GrantCipher(hexKey());
    const sealed = cipher.seal(token, 'gitea_grants:g1:access');
    expect(() => cipher.open(sealed, 'gitea_grants:g2:access')).toThrow(GrantDecryptionError);
    expect(() => cipher.open(sealed, 'gitea_grants:g1:refresh')).toThrow(GrantDecryptionError);
  });

  it('refuses with a wrong key, and with an unknown key id', () => {
    const a = new GrantCipher(hexKey());
    const b = new GrantCipher(hexKey());
    const sealed = a.seal(token, 'ctx');
    expect(() => b.open(sealed, 'ctx')).toThrow(/no loaded key/);
    // Same key id claimed, different key material: authentication fails.
    const forged = new GrantCipher(hexKey());
    const other = forged.seal(token, 'ctx');
    expect(() => a.open({ keyId: a.currentKeyId, value: other.value }, 'ctx')).toThrow(
      /failed authentication/,
    );
  });

  it('rotates: the new key encrypts, the previous one still decrypts, stale rows are detected', () => {
    const oldKey = hexKey();
    const newKey = b64Key();
    const before = new GrantCipher(oldKey);
    const sealedOld = before.seal(token, 'ctx');
    const after = new GrantCipher(newKey, [oldKey]);
    expect(after.currentKeyId).not.toBe(before.currentKeyId);
    expect(after.keyIds).toEqual([after.currentKeyId, before.currentKeyId]);
    expect(after.open(sealedOld, 'ctx')).toBe(token);
    expect(after.isStale(sealedOld.keyId)).toBe(true);
    const resealed = after.seal(after.open(sealedOld, 'ctx'), 'ctx');
    expect(after.isStale(resealed.keyId)).toBe(false);
    // Once the old key is dropped, its rows cannot be read any more.
    const dropped = new GrantCipher(newKey);
    expect(() => dropped.open(sealedOld, 'ctx')).toThrow(GrantDecryptionError);
    expect(dropped.open(resealed, 'ctx')).toBe(token);
  });

  it('accepts hex, base64 and base64url keys of 32 bytes only; key ids are stable and not the key', () => {
    const bytes = randomBytes(32);
    expect(keyIdOf(decodeKey(bytes.toString('hex')))).toBe(keyIdOf(decodeKey(bytes.toString('base64'))));
    expect(keyIdOf(decodeKey(bytes.toString('base64url')))).toBe(keyIdOf(bytes));
    expect(keyIdOf(bytes)).not.toContain(bytes.toString('hex').slice(0, 16));
    expect(() => new GrantCipher(randomBytes(16).toString('hex'))).toThrow(/32 bytes/);
  });
});
