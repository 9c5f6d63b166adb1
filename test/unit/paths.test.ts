// Where meterdata keeps its files on each platform (pure: env and platform are arguments).
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { dirs, HomeUnknownError } from '../../src/core/paths.js';

describe('dirs', () => {
  it('METERDATA_HOME overrides everything, on every platform', () => {
    for (const platform of ['linux', 'darwin', 'win32'] as const) {
      expect(dirs({ METERDATA_HOME: '/m', HOME: '/h', XDG_CONFIG_HOME: '/x', APPDATA: 'C:\\A' }, platform)).toEqual({
        config: path.join('/m', 'config'),
        state: path.join('/m', 'state'),
        cache: path.join('/m', 'cache'),
      });
    }
  });

  it('Linux: XDG variables when set', () => {
    expect(dirs({ HOME: '/h', XDG_CONFIG_HOME: '/xc', XDG_STATE_HOME: '/xs', XDG_CACHE_HOME: '/xk' }, 'linux')).toEqual({
      config: '/xc/meterdata',
      state: '/xs/meterdata',
      cache: '/xk/meterdata',
    });
  });

  it('Linux: the XDG defaults under HOME when unset or empty', () => {
    expect(dirs({ HOME: '/h', XDG_CONFIG_HOME: '' }, 'linux')).toEqual({
      config: '/h/.config/meterdata',
      state: '/h/.local/state/meterdata',
      cache: '/h/.cache/meterdata',
    });
  });

  it('Linux: a relative XDG variable is ignored, as the XDG spec says (no meterdata folders in the working folder)', () => {
    expect(dirs({ HOME: '/h', XDG_CONFIG_HOME: 'relconf', XDG_STATE_HOME: './relstate', XDG_CACHE_HOME: 'relcache' }, 'linux')).toEqual({
      config: '/h/.config/meterdata',
      state: '/h/.local/state/meterdata',
      cache: '/h/.cache/meterdata',
    });
  });

  // Round 32 F8: `HOME= meterdata login` wrote config.json and the refresh token into the working folder.
  it('an empty or relative HOME counts as unset: the account’s home folder, never the working folder', () => {
    const account = os.userInfo().homedir;
    for (const HOME of ['', 'rel', './x']) {
      const d = dirs({ HOME }, 'linux');
      expect(d.config).toBe(path.join(account, '.config', 'meterdata'));
      expect(path.isAbsolute(d.state) && path.isAbsolute(d.cache)).toBe(true);
    }
  });

  // Round 34 F3: a relative METERDATA_HOME put config.json and the refresh token under the working folder.
  it('a relative METERDATA_HOME is refused, naming itself, on every platform', () => {
    for (const platform of ['linux', 'darwin', 'win32'] as const)
      for (const METERDATA_HOME of ['relhome', '.', './x']) {
        expect(() => dirs({ METERDATA_HOME, HOME: '/h' }, platform)).toThrow(HomeUnknownError);
        expect(() => dirs({ METERDATA_HOME, HOME: '/h' }, platform)).toThrow(`METERDATA_HOME is relative: ${METERDATA_HOME}`);
      }
  });

  // Round 34 F4: HOME is only the XDG folders' fallback; with all three named, no HOME is needed.
  it('Linux: no home folder needed where the three XDG variables are full paths', () => {
    const env = { HOME: '', XDG_CONFIG_HOME: '/xc', XDG_STATE_HOME: '/xs', XDG_CACHE_HOME: '/xk' };
    expect(dirs(env, 'linux')).toEqual({ config: '/xc/meterdata', state: '/xs/meterdata', cache: '/xk/meterdata' });
  });

  it('macOS: Application Support and Caches', () => {
    expect(dirs({ HOME: '/Users/u', XDG_CONFIG_HOME: '/ignored' }, 'darwin')).toEqual({
      config: '/Users/u/Library/Application Support/meterdata',
      state: '/Users/u/Library/Application Support/meterdata/state',
      cache: '/Users/u/Library/Caches/meterdata',
    });
  });

  it('Windows: APPDATA for config, LOCALAPPDATA for state and cache, with fallbacks under HOME', () => {
    expect(dirs({ HOME: '/home/u', APPDATA: '/roaming', LOCALAPPDATA: '/local' }, 'win32')).toEqual({
      config: path.join('/roaming', 'meterdata'),
      state: path.join('/local', 'meterdata', 'state'),
      cache: path.join('/local', 'meterdata', 'cache'),
    });
    expect(dirs({ HOME: '/home/u' }, 'win32')).toEqual({
      config: path.join('/home/u', 'AppData', 'Roaming', 'meterdata'),
      state: path.join('/home/u', 'AppData', 'Local', 'meterdata', 'state'),
      cache: path.join('/home/u', 'AppData', 'Local', 'meterdata', 'cache'),
    });
  });
});

describe('the account’s home folder', () => {
  it('is read from the account database once per lookup, and not at all where HOME is set', () => {
    const spy = vi.spyOn(os, 'userInfo');
    try {
      const d = dirs({}, 'linux');
      expect(d.state.startsWith(os.userInfo().homedir)).toBe(true);
      expect(spy).toHaveBeenCalledTimes(2); // dirs() once, this test once
      spy.mockClear();
      dirs({ HOME: '/h' }, 'linux');
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });
});
