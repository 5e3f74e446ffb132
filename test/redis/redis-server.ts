/**
 * A throwaway redis-server for the Redis store's tests and benchmark: found (or
 * installed) by scripts/ensure-redis, on a free loopback port, nothing written
 * to disk, stopped after. `restart()` stops it and starts it again on the same
 * port, empty, as a crashed Redis without persistence comes back.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';

export interface RedisServer {
  readonly url: string;
  readonly port: number;
  /** Stops it (SIGKILL: a crash, nothing flushed) and starts an empty one on the same port. */
  restart(): Promise<void>;
  /** Stops it and waits until `start()`; `restart()` is both. */
  kill(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function startRedisServer(): Promise<RedisServer> {
  const binary = execFileSync('scripts/ensure-redis', { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
  const port = await freePort();
  let child: ChildProcess | undefined;

  async function start() {
    const started = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes', '--dir', '/tmp'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = started;
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const read = (chunk: Buffer) => {
        output += chunk;
        if (output.includes('Ready to accept connections')) resolve();
      };
      started.stdout!.on('data', read);
      started.stderr!.on('data', read);
      started.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${output.slice(-500)}`)));
    });
    started.stdout!.resume();
    started.stderr!.resume();
  }

  async function kill() {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = once(running, 'exit');
    running.kill('SIGKILL');
    await exited;
  }

  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    start,
    kill,
    stop: kill,
    async restart() {
      await kill();
      await start();
    },
  };
}
