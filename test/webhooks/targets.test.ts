import { describe, expect, it } from 'vitest';

import { DocexError } from '../../src/core/errors.js';
import { checkTargetUrl, isPrivateAddress } from '../../src/webhooks/targets.js';

describe('webhook targets', () => {
  it('knows private, loopback, link-local and reserved addresses, v4 and v6', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '::1',
      '::',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:a9fe:a9fe',
    ]) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:5db8:d822']) {
      expect(isPrivateAddress(address), address).toBe(false);
    }
  });

  it('accepts public http(s) URLs and normalises them', () => {
    expect(checkTargetUrl('https://hooks.example.com/docex?x=1', false)).toBe(
      'https://hooks.example.com/docex?x=1',
    );
    expect(checkTargetUrl('http://93.184.216.34:8080/in', false)).toBe('http://93.184.216.34:8080/in');
  });

  it('refuses loopback and private targets unless the host allows them', () => {
    for (const url of [
      'http://localhost:3000/',
      'http://api.localhost/',
      'http://127.0.0.1/',
      'http://[::1]:8080/',
      'http://169.254.169.254/latest/meta-data',
      'http://10.0.0.5/hook',
      'http://[::ffff:127.0.0.1]/',
    ]) {
      let error: unknown;
      try {
        checkTargetUrl(url, false);
      } catch (e) {
        error = e;
      }
      expect(error, url).toBeInstanceOf(DocexError);
      expect((error as DocexError).code, url).toBe('WEBHOOK_TARGET_REFUSED');
      expect(checkTargetUrl(url, true)).toBe(new URL(url).href);
    }
  });

  it('refuses what is not an http(s) URL, and credentials in it', () => {
    for (const url of [
      'ftp://example.com/',
      'file:///etc/passwd',
      'not a url',
      '',
      'https://u:p@example.com/',
      42,
      `https://e.com/${'a'.repeat(2100)}`,
    ]) {
      expect(() => checkTargetUrl(url, true), String(url).slice(0, 40)).toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
      );
    }
  });
});
