// The shape of config.json, checked when it is read (src/core/file-schema.ts). Fields a
// newer meterdata may add are kept; every field this version uses must have its type.
import * as v from 'valibot';
import type { ConfigFile, Profile } from './config.js';

const text = v.string();
const filled = v.pipe(v.string(), v.nonEmpty());
const texts = v.array(v.string());

export const ProfileSchema = v.looseObject({
  name: filled,
  auth_url: filled,
  base_url: filled,
  resource: filled,
  client_id: filled,
  client_auth: v.picklist(['none', 'client_secret_basic', 'private_key_jwt']),
  private_key_file: v.optional(filled),
  kid: v.optional(text),
  alg: v.optional(v.picklist(['RS256', 'PS256', 'ES256'])),
  dpop: v.boolean(),
  scopes: texts,
  credential_store: v.picklist(['keychain', 'file']),
  tenant_id: v.optional(text),
  tenant_name: v.optional(text),
  client_id_seen: v.optional(text),
  granted_scopes: v.optional(texts),
  property_scope: v.optional(v.union([v.literal('all'), texts])),
  property_names: v.optional(texts),
  // Shown by status, never decided on.
  last_refresh_at: v.optional(text),
  access_expires_at: v.optional(text),
});

const PresetSchema = v.looseObject({ auth_url: v.optional(filled), base_url: v.optional(filled), client_id: v.optional(filled) });

/** The file as a whole; each profile is checked on its own when it is read (config.ts). */
export const ConfigSchema = v.looseObject({
  presets: v.optional(v.looseObject({ sandbox: v.optional(PresetSchema), production: v.optional(PresetSchema) })),
  profiles: v.optional(v.record(v.string(), v.looseObject({}))),
});

// The schemas and the interfaces the code uses must describe the same fields.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Known<T> = { [K in keyof T as string extends K ? never : K]: T[K] };
const profileMatches: Same<Known<v.InferOutput<typeof ProfileSchema>>, Profile> = true;
const presetMatches: Same<Known<v.InferOutput<typeof PresetSchema>>, NonNullable<NonNullable<ConfigFile['presets']>['sandbox']>> = true;
void profileMatches;
void presetMatches;
