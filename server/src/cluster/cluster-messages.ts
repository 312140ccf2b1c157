import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import { errorMessage } from '../errors.ts';

/*
 * What nodes tell each other about one group over Redis (its channel, `quire:sync:<groupId>`). Binary
 * with lib0's encoding, as the sync protocol is: a format version, the kind, the sending node, the group
 * (checked against the channel), then the kind's fields. Anything that does not decode exactly is
 * refused with MalformedClusterMessage, which the receiver counts and drops: one bad message must never
 * stop fan-out (y-redis once stopped all of a process's fan-out on one malformed stream id).
 */

const FORMAT = 1;
const KINDS = ['update', 'compacted', 'presence', 'presence-query'] as const;

export type ClusterMessage =
  /** One update, committed to the log under `seq` before it was sent. */
  | { kind: 'update'; origin: string; groupId: string; seq: number; update: Uint8Array }
  /** Row `seq` is a compaction: it holds nothing the rows numbered before it do not. */
  | { kind: 'compacted'; origin: string; groupId: string; seq: number }
  /** An awareness update (y-protocols encoding) for the sending node's own clients. */
  | { kind: 'presence'; origin: string; groupId: string; update: Uint8Array }
  /** A node that just loaded the group asks the others for their clients' presence. */
  | { kind: 'presence-query'; origin: string; groupId: string };

export class MalformedClusterMessage extends Error {
  override readonly name = 'MalformedClusterMessage';
}

export function groupChannel(groupId: string): string {
  return `quire:sync:${groupId}`;
}

export function groupOfChannel(channel: string): string | null {
  return channel.startsWith('quire:sync:') ? channel.slice('quire:sync:'.length) : null;
}

export function encodeClusterMessage(message: ClusterMessage): Uint8Array {
  const encoder = encoding.createEncoder();
  encoding.writeVarUint(encoder, FORMAT);
  encoding.writeVarUint(encoder, KINDS.indexOf(message.kind));
  encoding.writeVarString(encoder, message.origin);
  encoding.writeVarString(encoder, message.groupId);
  if (message.kind === 'update' || message.kind === 'compacted') encoding.writeVarUint(encoder, message.seq);
  if (message.kind === 'update' || message.kind === 'presence') {
    encoding.writeVarUint8Array(encoder, message.update);
  }
  return encoding.toUint8Array(encoder);
}

/** Decodes one message from `channel`; throws MalformedClusterMessage for anything else. */
export function decodeClusterMessage(channel: string, data: Uint8Array): ClusterMessage {
  try {
    const decoder = decoding.createDecoder(data);
    const format = decoding.readVarUint(decoder);
    if (format !== FORMAT) throw new MalformedClusterMessage(`unknown format ${format}`);
    const kind = KINDS[decoding.readVarUint(decoder)];
    if (kind === undefined) throw new MalformedClusterMessage('unknown kind');
    const origin = decoding.readVarString(decoder);
    const groupId = decoding.readVarString(decoder);
    if (origin === '') throw new MalformedClusterMessage('no sending node');
    if (groupChannel(groupId) !== channel) {
      throw new MalformedClusterMessage(`names group ${groupId} on channel ${channel}`);
    }
    let message: ClusterMessage;
    if (kind === 'update') {
      const seq = readSeq(decoder);
      message = { kind, origin, groupId, seq, update: decoding.readVarUint8Array(decoder).slice() };
    } else if (kind === 'compacted') {
      message = { kind, origin, groupId, seq: readSeq(decoder) };
    } else if (kind === 'presence') {
      message = { kind, origin, groupId, update: decoding.readVarUint8Array(decoder).slice() };
    } else {
      message = { kind, origin, groupId };
    }
    if (decoding.hasContent(decoder)) throw new MalformedClusterMessage('trailing bytes');
    return message;
  } catch (err) {
    if (err instanceof MalformedClusterMessage) throw err;
    throw new MalformedClusterMessage(errorMessage(err));
  }
}

/**
 * The sending node of a message, read without decoding the rest, or null when it does not start as a
 * message does. A node hears its own messages back on every channel it subscribes; it drops them by this
 * before it copies the update out and checks the rest (a third of what each of three nodes receives).
 */
export function clusterMessageOrigin(data: Uint8Array): string | null {
  try {
    const decoder = decoding.createDecoder(data);
    if (decoding.readVarUint(decoder) !== FORMAT) return null;
    if (KINDS[decoding.readVarUint(decoder)] === undefined) return null;
    return decoding.readVarString(decoder);
  } catch {
    return null;
  }
}

function readSeq(decoder: decoding.Decoder): number {
  const seq = decoding.readVarUint(decoder);
  if (!Number.isSafeInteger(seq) || seq < 1) throw new MalformedClusterMessage(`bad update number ${seq}`);
  return seq;
}
