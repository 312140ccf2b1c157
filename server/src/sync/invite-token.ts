import { createHash, randomBytes } from 'node:crypto';

/** 32 random bytes: guessing one is out of reach, so the secret alone is the capability. */
const SECRET_BYTES = 32;
/** base64url of 32 bytes, without padding. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** A new invite secret. It is shown once; only its hash is stored. */
export function newInviteToken(): string {
  return randomBytes(SECRET_BYTES).toString('base64url');
}

/**
 * SHA-256 is enough here (no slow KDF): the secret has 256 bits of entropy, so there is nothing to
 * brute-force, and a stolen database yields hashes that open nothing.
 */
export function hashInviteToken(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/** Whether `token` has the shape of an invite secret; anything else is refused without a lookup. */
export function isWellFormedToken(token: unknown): token is string {
  return typeof token === 'string' && TOKEN_PATTERN.test(token);
}

/** A random id for a group or an invite: base64url, so it needs no escaping in a path or a link. */
export function newId(bytes = 16): string {
  return randomBytes(bytes).toString('base64url');
}

/**
 * The path of an invite link. The group id and the secret sit in the fragment, which browsers never
 * send, so the secret does not reach server or proxy logs. base64url has no '.', so '.' separates them.
 */
export function inviteLinkPath(groupId: string, token: string): string {
  return `/join#${groupId}.${token}`;
}
