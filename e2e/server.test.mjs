// Tests of the harness's `serveDirectory`: the browser tests are only as good as the server they
// load the site from. The server itself is xtask's (xtask/src/static_files.rs, tested there:
// paths, types, escapes, precompressed copies); these check what crosses between it and the
// harness, the site's address under its sub-path, the 404s it reports, the copies on request, and
// its stop.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

import { serveDirectory } from './harness.mjs';

describe('static server', () => {
  let dir;
  let root;
  let site;

  before(async () => {
    // dir/secret.txt sits beside the served directory dir/site/, for the escape test.
    dir = await mkdtemp(join(tmpdir(), 'lockstep-server-test-'));
    root = join(dir, 'site');
    await mkdir(join(root, 'nested'), { recursive: true });
    await writeFile(join(dir, 'secret.txt'), 'secret');
    await writeFile(join(root, 'index.html'), '<p>home</p>');
    await writeFile(join(root, 'app_bg.wasm'), Buffer.from([0, 0x61, 0x73, 0x6d]));
    await writeFile(join(root, 'nested', 'index.html'), '<p>nested</p>');
    site = await serveDirectory(root, '/some/sub/path/');
  });

  after(async () => {
    await site.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('serves the site at the sub-path, with the types browsers require', async () => {
    assert.match(site.url, /^http:\/\/127\.0\.0\.1:\d+\/some\/sub\/path\/$/);
    const response = await fetch(site.url);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.equal(response.headers.get('cache-control'), 'no-cache');
    assert.equal(await response.text(), '<p>home</p>');
    const wasm = await fetch(new URL('app_bg.wasm', site.url));
    assert.equal(wasm.headers.get('content-type'), 'application/wasm');
    assert.deepEqual([...new Uint8Array(await wasm.arrayBuffer())], [0, 0x61, 0x73, 0x6d]);
    assert.equal(await (await fetch(new URL('nested/', site.url))).text(), '<p>nested</p>');
  });

  it('answers 404 outside the sub-path, for missing files and for escapes, and reports them', async () => {
    const origin = new URL(site.url).origin;
    const paths = ['/index.html', '/some/sub/path/missing.js', '/some/sub/path/..%2fsecret.txt'];
    for (const path of paths) {
      const response = await fetch(origin + path);
      assert.equal(response.status, 404, path);
    }
    assert.deepEqual(await site.notFound(), paths);
  });

  it('sends the precompressed copy beside a file on request, for a client that accepts it', async () => {
    const copy = gzipSync('<p>home</p>', { level: 9 });
    await writeFile(join(root, 'index.html.gz'), copy);
    const zipped = await serveDirectory(root, '/', { precompressed: true });
    try {
      const response = await fetch(`${zipped.url}index.html`, { headers: { 'accept-encoding': 'gzip' } });
      assert.equal(response.headers.get('content-encoding'), 'gzip');
      // fetch decodes the body itself; the length on the wire is the copy's.
      assert.equal(await response.text(), '<p>home</p>');
      assert.equal(Number(response.headers.get('content-length')), copy.length);
    } finally {
      await zipped.close();
    }
    await assert.rejects(fetch(zipped.url), 'the server stops on close');
  });
});
