import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { corkForThisTask } from './task-cork.ts';

const servers: Server[] = [];
const sockets: Socket[] = [];

afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  for (const s of servers.splice(0)) await new Promise<void>((resolve) => s.close(() => resolve()));
});

/** A connected pair of real TCP sockets on the loopback: [writer, reader]. */
async function socketPair(): Promise<[Socket, Socket]> {
  let accept: (socket: Socket) => void = () => {};
  const accepted = new Promise<Socket>((resolve) => (accept = resolve));
  const server = createServer(accept);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const writer = connect(port, '127.0.0.1');
  await new Promise<void>((resolve) => writer.once('connect', resolve));
  const reader = await accepted;
  sockets.push(writer, reader);
  return [writer, reader];
}

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Lets the microtasks queued so far run (the release among them). */
function taskEnded(): Promise<void> {
  return Promise.resolve();
}

describe('corkForThisTask', () => {
  it('holds a socket’s writes until the task has run, corked once however often it is asked', async () => {
    const [writer, reader] = await socketPair();
    const received: Buffer[] = [];
    reader.on('data', (chunk: Buffer) => received.push(chunk));
    corkForThisTask(writer);
    writer.write('one ');
    corkForThisTask(writer);
    writer.write('two');
    expect(writer.writableCorked).toBe(1);
    expect(writer.writableLength).toBe('one two'.length); // held, not written
    await taskEnded();
    expect(writer.writableCorked).toBe(0);
    while (Buffer.concat(received).toString() !== 'one two') await nextTurn();
  });

  it('releases every socket corked in the task, and corks again in a later one', async () => {
    const [a] = await socketPair();
    const [b] = await socketPair();
    corkForThisTask(a);
    corkForThisTask(b);
    expect([a.writableCorked, b.writableCorked]).toEqual([1, 1]);
    await taskEnded();
    expect([a.writableCorked, b.writableCorked]).toEqual([0, 0]);
    corkForThisTask(a);
    expect(a.writableCorked).toBe(1);
    await taskEnded();
    expect(a.writableCorked).toBe(0);
  });
});
