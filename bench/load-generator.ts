/**
 * The load generator of bench/sandbox.bench.ts, run as its own Node process so
 * that its requests do not share an event loop with the server being measured
 * (in one process the generator's work slows subject and baseline alike and
 * flatters the slower one). Not a benchmark itself: the bench starts it with
 * an IPC channel and sends it one `Load` at a time; it answers a `LoadResult`.
 */
import { Agent, request } from 'node:http';

export interface Load {
  readonly base: string;
  readonly token: string;
  readonly method: 'GET' | 'POST';
  readonly path: string;
  /** A form body; `{n}` in it is replaced by a count unique to each request, so every checkout differs. */
  readonly body?: string;
  /** Requests kept outstanding at every moment, each on its own keep-alive socket. */
  readonly inFlight: number;
  /** Stop after this many seconds, or after `requests` requests, whichever comes first. */
  readonly seconds: number;
  readonly requests?: number;
}

export interface LoadResult {
  readonly requests: number;
  readonly seconds: number;
  /** CPU time (user and system) the generator spent per request, in µs: near a whole core's worth, the generator is the bottleneck. */
  readonly cpu: number;
  /** The first answer that was not HTTP 200, if any: the run stops there. */
  readonly failure?: string;
}

let sent = 0;

function send(agent: Agent, load: Load): Promise<number> {
  const body = load.body?.replace('{n}', String(sent++));
  return new Promise((resolve, reject) => {
    const outgoing = request(
      `${load.base}${load.path}`,
      {
        method: load.method,
        agent,
        headers: {
          authorization: `Bearer ${load.token}`,
          ...(body ? { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) } : {}),
        },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

async function run(load: Load): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: load.inFlight });
  const deadline = performance.now() + load.seconds * 1000;
  const limit = load.requests ?? Infinity;
  let started = 0;
  let done = 0;
  let failure: string | undefined;
  const worker = async () => {
    while (!failure && started < limit && performance.now() < deadline) {
      started++;
      const status = await send(agent, load);
      if (status !== 200) failure = `${load.method} ${load.path} answered ${status}`;
      else done++;
    }
  };
  const begun = performance.now();
  const cpuBefore = process.cpuUsage();
  await Promise.all(Array.from({ length: load.inFlight }, worker));
  const { user, system } = process.cpuUsage(cpuBefore);
  const seconds = (performance.now() - begun) / 1000;
  agent.destroy();
  return { requests: done, seconds, cpu: (user + system) / done, ...(failure ? { failure } : {}) };
}

process.on('message', (load: Load) => {
  run(load).then(
    (result) => process.send!(result),
    (error: unknown) => process.send!({ requests: 0, seconds: 0, cpu: 0, failure: String(error) } satisfies LoadResult),
  );
});
