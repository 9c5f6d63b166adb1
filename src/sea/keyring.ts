// Stands in for "@napi-rs/keyring" inside the single executable (scripts/build-exe.mjs
// swaps it in): loads the platform's native module, embedded as the asset "keyring.node",
// from a checked copy in the user's cache folder (see native.ts).
import { getRawAsset } from 'node:sea';
import type * as Keyring from '@napi-rs/keyring';
import { dirs } from '../core/paths.js';
import { materialize, nativeModulePath } from './native.js';

function load(): typeof Keyring {
  const bytes = new Uint8Array(getRawAsset('keyring.node'));
  const file = materialize(bytes, nativeModulePath('keyring', bytes, dirs().cache, process.platform));
  const mod = { exports: {} as typeof Keyring };
  process.dlopen(mod, file);
  return mod.exports;
}

const native = load();
export const AsyncEntry = native.AsyncEntry;
export const Entry = native.Entry;
export const findCredentials = native.findCredentials;
export const findCredentialsAsync = native.findCredentialsAsync;
export default native;
