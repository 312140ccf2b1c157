/**
 * The shapes of /api/groups and the sync endpoint's close codes, from core (shared with the server), plus
 * the client's reading of the codes.
 */
import { CLOSE_CODES } from '@quire/core';

export type {
  CreatedGroupDto,
  CreatedInviteDto,
  InviteDto,
  InviteRole,
  MyGroupDto,
  MyGroupsDto,
  RefusedTokenDto,
  RevokedInviteDto,
} from '@quire/core';

/** The server's close codes 4400–4499 say that reconnecting cannot help (y-websocket stops on them). */
export function isTerminalClose(code: number): boolean {
  return code >= 4400 && code < 4500;
}

/**
 * What the terminal close codes mean, for when a close arrives without its reason (a proxy may drop it).
 * The server's own reason is shown when there is one.
 */
export const TERMINAL_CLOSE_REASONS: Readonly<Record<number, string>> = Object.fromEntries(
  Object.values(CLOSE_CODES)
    .filter((c) => isTerminalClose(c.code))
    .map((c) => [c.code, c.reason]),
);
