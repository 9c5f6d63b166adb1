// A base URL whose scheme has no origin (file:, data:) was refused as "The API base URL null is not https"
// (round 26): the URL is named as given.
import { describe, expect, it } from 'vitest';
import { tokenSafeUrl } from '../../src/core/secure-url.js';

describe('a URL without an origin', () => {
  it.each(['file:///etc/passwd', 'data:text/plain,x'])('%s: refused naming the URL, not "null"', (url) => {
    expect(() => tokenSafeUrl(url, 'The API base URL', 'hint')).toThrow(`The API base URL "${url}" is not https`);
    expect(() => tokenSafeUrl(url, 'The API base URL', 'hint')).not.toThrow(/\bnull\b/);
  });

  it('an http URL elsewhere than loopback still names its origin', () => {
    expect(() => tokenSafeUrl('http://example.org/v1', 'The API base URL', 'hint')).toThrow('The API base URL http://example.org is not https');
  });
});
