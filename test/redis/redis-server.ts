/**
 * A throwaway redis-server for the Redis store's tests and benchmark, on a
 * free loopback port, nothing written to disk, stopped after. `restart()`
 * stops it and starts it again on the same port, empty, as a crashed Redis
 * without persistence comes back. It never installs anything: `npm test`
 * runs scripts/ensure-redis once, before the tests, and passes the path in
 * REDIS_SERVER_PATH (several test files installing at once once hung the run).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { accessSync, constants } from 'node:fs';
import { createServer } from 'node:net';
import { delimiter, join } from 'node:path';

/** How long a redis-server may take to say it accepts connections (it takes milliseconds; a loaded machine, seconds). */
export const REDIS_START_TIMEOUT_MS = 30_000;

const isExecutable = (path: string) => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/**
 * REDIS_SERVER_PATH when set (and then it must be one), else a redis-server on
 * PATH, for a test file run on its own; otherwise an error that says what to do.
 */
export function redisServerPath(env: NodeJS.ProcessEnv = process.env): string {
  const given = env.REDIS_SERVER_PATH;
  if (given) {
    if (isExecutable(given)) return given;
    throw new Error(
      `REDIS_SERVER_PATH=${given} is not an executable redis-server; run scripts/ensure-redis (npm test does) or point it at one`,
    );
  }
  const found = (env.PATH ?? '')
    .split(delimiter)
    .filter(Boolean)
    .map((dir) => join(dir, 'redis-server'))
    .find(isExecutable);
  if (found) return found;
  throw new Error(
    'no redis-server: set REDIS_SERVER_PATH=/path/to/redis-server, or run scripts/ensure-redis (npm test does; tests never install it)',
  );
}

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

export async function startRedisServer(options: { binary?: string; startTimeoutMs?: number } = {}): Promise<RedisServer> {
  const binary = options.binary ?? redisServerPath();
  const startTimeoutMs = options.startTimeoutMs ?? REDIS_START_TIMEOUT_MS;
  const port = await freePort();
  let child: ChildProcess | undefined;

  async function start() {
    const started = spawn(
      binary,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes', '--dir', '/tmp'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child = started;
    let output = '';
    let timer: NodeJS.Timeout | undefined;
    try {
      await new Promise<void>((resolve, reject) => {
        const read = (chunk: Buffer) => {
          output += chunk;
          if (output.includes('Ready to accept connections')) resolve();
        };
        started.stdout!.on('data', read);
        started.stderr!.on('data', read);
        // A binary that cannot run at all emits 'error', not 'exit': without this the wait never ends.
        started.once('error', (error) => reject(new Error(`${binary} could not start: ${error.message}`)));
        started.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${output.slice(-500)}`)));
        timer = setTimeout(
          () =>
            reject(new Error(`${binary} did not accept connections within ${startTimeoutMs} ms: ${output.slice(-500) || '(no output)'}`)),
          startTimeoutMs,
        );
      });
    } catch (error) {
      await kill();
      throw error;
    } finally {
      clearTimeout(timer);
    }
    started.stdout!.resume();
    started.stderr!.resume();
  }

  async function kill() {
    const running = child;
    child = undefined;
    // Never started (spawn failed) or already ended: there is no 'exit' to wait for.
    if (!running || running.pid === undefined || running.exitCode !== null || running.signalCode !== null) return;
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
