import { describe, expect, it } from 'vitest';
import { cacheControlOf, injectConfigScript, isFingerprinted, isReservedPath, manifestLookup, resolveSitePath, sitePath } from './sites.rules.js';

const file = (sha: string) => ({ sha256: sha.repeat(64), size: 1, type: 'text/html; charset=utf-8' });

describe('site rules', () => {
  it('keeps /_osg and /_invite for the gateway', () => {
    expect(isReservedPath('/_osg')).toBe(true);
    expect(isReservedPath('/_osg/auth/session')).toBe(true);
    expect(isReservedPath('/_invite/inv_x')).toBe(true);
    expect(isReservedPath('/_osgood')).toBe(false);
    expect(() => sitePath('_osg/config.json')).toThrow(/_osg/);
    expect(() => sitePath('a/../b')).toThrow();
    expect(() => sitePath('a\\b')).toThrow();
    expect(sitePath('/a/b.html')).toBe('a/b.html');
  });

  it('tells fingerprinted assets from the rest', () => {
    expect(isFingerprinted('assets/index-4f3a9c1b.js')).toBe(true);
    expect(isFingerprinted('app.BXk2a9Qe.css')).toBe(true);
    expect(isFingerprinted('assets/logo.svg')).toBe(false);
    expect(isFingerprinted('styles-abcdefgh.css')).toBe(false);
    expect(cacheControlOf('index.html', 'text/html; charset=utf-8')).toBe('no-cache');
  });

  it('resolves paths: file, directory index, .html, SPA fallback, 404.html; own keys only', async () => {
    const manifest = { 'index.html': file('a'), 'docs/index.html': file('b'), 'about.html': file('c'), '404.html': file('d') };
    const find = manifestLookup(manifest);
    expect((await resolveSitePath(find, '/', false, true))?.path).toBe('index.html');
    expect((await resolveSitePath(find, '/docs', false, true))?.path).toBe('docs/index.html');
    expect((await resolveSitePath(find, '/about', false, true))?.path).toBe('about.html');
    expect(await resolveSitePath(find, '/app/route', true, false)).toMatchObject({ path: 'index.html', status: 200 });
    expect(await resolveSitePath(find, '/missing.js', true, false)).toMatchObject({ path: '404.html', status: 404 });
    expect(await resolveSitePath(manifestLookup({}), '/constructor', false, false)).toBeNull();
  });

  it('adds the config script first in <head>, once', () => {
    const page = injectConfigScript('<!doctype html><html><head lang="en"><title>x</title></head></html>');
    expect(page).toBe('<!doctype html><html><head lang="en"><script src="/_osg/config.js"></script><title>x</title></head></html>');
    expect(injectConfigScript(page)).toBe(page);
    expect(injectConfigScript('<!doctype html><p>hi')).toBe('<!doctype html><script src="/_osg/config.js"></script><p>hi');
  });
});
