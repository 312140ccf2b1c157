import { describe, expect, it } from 'vitest';
import {
  MalformedClusterMessage,
  clusterMessageOrigin,
  decodeClusterMessage,
  encodeClusterMessage,
  groupChannel,
  type ClusterMessage,
} from './cluster-messages.ts';

const channel = groupChannel('g1');

describe('cluster messages', () => {
  it('round-trips every kind', () => {
    const messages: ClusterMessage[] = [
      { kind: 'update', origin: 'node-a', groupId: 'g1', seq: 42, update: new Uint8Array([1, 2, 3]) },
      { kind: 'compacted', origin: 'node-a', groupId: 'g1', seq: 7 },
      { kind: 'presence', origin: 'node-b', groupId: 'g1', update: new Uint8Array([0]) },
      { kind: 'presence-query', origin: 'node-c', groupId: 'g1' },
    ];
    for (const m of messages) expect(decodeClusterMessage(channel, encodeClusterMessage(m))).toEqual(m);
  });

  it('refuses garbage, truncation, trailing bytes and a group other than the channel’s', () => {
    const good = encodeClusterMessage({
      kind: 'update',
      origin: 'node-a',
      groupId: 'g1',
      seq: 1,
      update: new Uint8Array([9, 9]),
    });
    const bad = [
      new Uint8Array([]),
      new Uint8Array([0xff, 0xff, 0xff]),
      good.slice(0, good.length - 1),
      new Uint8Array([...good, 0]),
      encodeClusterMessage({ kind: 'presence-query', origin: 'node-a', groupId: 'g2' }),
      encodeClusterMessage({ kind: 'compacted', origin: 'node-a', groupId: 'g1', seq: 0 }),
      encodeClusterMessage({ kind: 'presence-query', origin: '', groupId: 'g1' }),
    ];
    for (const data of bad) {
      expect(() => decodeClusterMessage(channel, data)).toThrow(MalformedClusterMessage);
    }
  });

  it('reads the sending node alone, and nothing from what does not start as a message', () => {
    const update: ClusterMessage = {
      kind: 'update',
      origin: 'node-a',
      groupId: 'g1',
      seq: 3,
      update: new Uint8Array([1]),
    };
    expect(clusterMessageOrigin(encodeClusterMessage(update))).toBe('node-a');
    expect(
      clusterMessageOrigin(encodeClusterMessage({ kind: 'presence-query', origin: 'node-c', groupId: 'g1' })),
    ).toBe('node-c');
    expect(clusterMessageOrigin(new Uint8Array([]))).toBeNull();
    expect(clusterMessageOrigin(new Uint8Array([2, 0, 1, 120]))).toBeNull(); // another format
    expect(clusterMessageOrigin(new Uint8Array([1, 9, 1, 120]))).toBeNull(); // no such kind
    expect(clusterMessageOrigin(new Uint8Array([1, 0, 5, 120]))).toBeNull(); // origin cut short
  });
});
