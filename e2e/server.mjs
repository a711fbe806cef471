// A tiny static file server for the browser tests: serves a directory (the built site, dist/)
// under a sub-path on 127.0.0.1 and an ephemeral port, so the tests prove the site works away
// from the server's root, which it can only do with relative URLs. Anything outside the
// sub-path, or missing, is a 404 and is recorded, so a test can fail on it. With `{ gzip: true }`
// it compresses every answer at level 9 (as `cargo xtask dist` measures) for a client that
// accepts gzip, as a real host would: the load benchmark counts the bytes a visitor transfers.

import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import { constants, gzipSync } from 'node:zlib';

const MIME_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
};

/**
 * Serves `root` at `http://127.0.0.1:<port><basePath>`.
 * @param {string} root directory to serve
 * @param {string} basePath URL path prefix, starting and ending with `/`
 * @param {{gzip?: boolean}} options `gzip`: compress answers for clients that accept it
 * @returns {Promise<{url: string, notFound: string[], close: () => Promise<void>}>}
 *   `url` is the site's address (with `basePath`); `notFound` lists every 404's path.
 */
export async function serveDirectory(root, basePath, { gzip = false } = {}) {
  if (!basePath.startsWith('/') || !basePath.endsWith('/')) {
    throw new Error(`basePath must start and end with "/": ${basePath}`);
  }
  const rootDir = resolve(root);
  const notFound = [];
  // Compressed once per file, so that compressing does not slow an answer the benchmark times.
  const compressed = new Map();

  const server = createServer(async (request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    const file = await fileFor(rootDir, basePath, path);
    if (file === null) {
      notFound.push(path);
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      response.end(`not found: ${path}\n`);
      return;
    }
    const type = MIME_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
    // `no-cache`, not `no-store`: always fresh from this server, which answers every request in
    // full, and Chromium reports a `no-store` response that a script reads chunk by chunk (the
    // wasm, read by Trunk's initializer for its progress) as aborted although it was read to
    // the end (microsoft/playwright#42742), which the tests would count as a failed request.
    const headers = { 'content-type': type, 'cache-control': 'no-cache' };
    let body = await readFile(file);
    if (gzip && /\bgzip\b/.test(request.headers['accept-encoding'] ?? '')) {
      if (!compressed.has(file)) compressed.set(file, gzipSync(body, { level: constants.Z_BEST_COMPRESSION }));
      body = compressed.get(file);
      headers['content-encoding'] = 'gzip';
      headers.vary = 'accept-encoding';
    }
    headers['content-length'] = body.length;
    response.writeHead(200, headers);
    response.end(request.method === 'HEAD' ? undefined : body);
  });

  await new Promise((done, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', done);
  });
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}${basePath}`,
    notFound,
    close: () => new Promise((done) => server.close(() => done())),
  };
}

/** The file that `path` names, or null: outside `basePath`, escaping `rootDir`, or missing. */
async function fileFor(rootDir, basePath, path) {
  if (!path.startsWith(basePath)) return null;
  let relative;
  try {
    relative = decodeURIComponent(path.slice(basePath.length));
  } catch {
    return null;
  }
  if (relative === '' || relative.endsWith('/')) relative += 'index.html';
  const file = resolve(join(rootDir, relative));
  if (!file.startsWith(rootDir + sep)) return null;
  try {
    return (await stat(file)).isFile() ? file : null;
  } catch {
    return null;
  }
}
