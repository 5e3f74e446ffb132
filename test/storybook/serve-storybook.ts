/**
 * Serves a static Storybook build as any static host would: files only, no
 * gateway and no merchant proxy. The build's own service worker (the sandbox
 * in the browser) answers /__gw/*; nothing here does.
 */
import { createReadStream, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

export interface ServedStorybook {
  /** Where the build's index.html is: the host's origin and the path the build sits under. */
  readonly url: string;
  close(): Promise<void>;
}

/** Serves `directory`'s files under `base` (a host's path ending in `/`, as a static site under a sub-path); everything else answers 404. */
export async function serveStorybook(directory: string, base = '/'): Promise<ServedStorybook> {
  const root = normalize(directory);
  const server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://storybook.invalid').pathname);
    // Chromium asks every host for one; the build has an SVG icon only.
    if (path === '/favicon.ico') return void response.writeHead(204).end();
    const relative = path.startsWith(base) ? path.slice(base.length) : undefined;
    const file =
      relative === undefined ? '' : normalize(join(root, relative === '' || relative.endsWith('/') ? `${relative}index.html` : relative));
    const inside = file.startsWith(root + sep);
    const stat = inside ? statSync(file, { throwIfNoEntry: false }) : undefined;
    if (!stat?.isFile()) {
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end('not found');
      return;
    }
    response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'content-length': stat.size });
    createReadStream(file).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${base}`,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
