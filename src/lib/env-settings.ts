// The vocabulary the configuration is declared in. A setting is a TypeBox schema of the value it
// yields (bounds, choices, patterns) that also carries its environment variable, its default and
// how the variable's text becomes that value; `readSettings` reads an object of them, nested
// objects included. A value that does not parse or fails its schema stops the start with one line:
// `NAME="value" is invalid: expected <what it accepts>`.
import { isAbsolute, resolve } from 'node:path';
import {
  type Static,
  type TArray,
  type TBoolean,
  type TEnum,
  type TInteger,
  type TObject,
  type TSchema,
  type TString,
  type TUndefined,
  type TUnion,
  Type,
} from 'typebox';
import { Value } from 'typebox/value';
import { isOneOf, switchOff, switchOn } from './allowed-values.js';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export type Env = Record<string, string | undefined>;

/** The value of a setting declared earlier, by its variable: for defaults that follow another setting. */
export type ReadEarlier = (variable: string) => unknown;

/** Unset or empty: the default, or one derived from earlier settings or the working directory. */
export type Fallback<T> = { default: T } | { defaultFrom: (earlier: ReadEarlier, cwd: string) => T };

/** What a setting adds to its TypeBox schema. */
export type SettingKeywords<T> = Fallback<T> & {
  env: string;
  /** What the error line says the variable accepts. */
  accepts: string;
  /** The variable's text into a value for the schema to check; throws Refusal when the text is malformed. */
  parse?: (raw: string, cwd: string) => T;
  /** The error line quotes `<hidden>` instead of the value (secrets). */
  hidden?: boolean;
  description?: string;
};

/** A malformed value: `shown` is the text as compared (trimmed, lower-cased…), `accepts` a narrower hint. */
export class Refusal {
  constructor(
    readonly shown?: string,
    readonly accepts?: string,
  ) {}
}

type Doc = { description?: string };

/** A whole number within bounds; surrounding spaces and leading zeros are allowed. */
export function wholeNumber(
  env: string,
  options: Fallback<number> & Doc & { minimum: number; maximum: number },
): TInteger {
  const accepts = `a whole number from ${options.minimum} to ${options.maximum}`;
  return Type.Integer({ ...options, env, accepts, parse: parseWholeNumber });
}

function parseWholeNumber(raw: string): number {
  if (!/^-?\d+$/.test(raw.trim())) throw new Refusal();
  return Number(raw.trim());
}

/**
 * One of a list of words, case included. `typedAs`, a longer list, widens the field's type beyond what
 * the variable accepts, for code that is handed values the variable does not offer.
 */
export function choice<const V extends readonly string[], const T extends readonly string[] = V>(
  env: string,
  values: V,
  options: Fallback<V[number]> & Doc & { typedAs?: T },
): TEnum<[...T]> {
  const { typedAs: _, ...keywords } = options;
  return Type.Enum([...values], { ...keywords, env, accepts: `one of ${values.join(', ')}` }) as TEnum<
    [...T]
  >;
}

/** A switch: switchOn or switchOff in any case. */
export function onOff(env: string, options: Fallback<boolean> & Doc): TBoolean {
  return Type.Boolean({ ...options, env, accepts: 'on or off', parse: parseOnOff });
}

function parseOnOff(raw: string): boolean {
  const word = raw.toLowerCase();
  if (isOneOf(switchOn, word)) return true;
  if (isOneOf(switchOff, word)) return false;
  throw new Refusal(word);
}

/** Free text, kept as given. */
export function text(env: string, options: { default: string } & Doc): TString {
  return Type.String({ ...options, env, accepts: 'text' });
}

/** Free text or unset; `pattern` (with `accepts` saying it in words) narrows what is allowed. */
export function optionalText(
  env: string,
  options: Doc & { pattern?: string; accepts?: string; hidden?: boolean } = {},
): TUnion<[TString, TUndefined]> {
  const { pattern, accepts = 'text', ...doc } = options;
  return Type.Union([Type.String(pattern === undefined ? {} : { pattern }), Type.Undefined()], {
    ...doc,
    env,
    accepts,
    default: undefined,
  });
}

/** An http(s) URL, its trailing slashes dropped; unset without a default. */
export function httpUrl(env: string, options: { default: string } & Doc): TString;
export function httpUrl(env: string, options?: Doc): TUnion<[TString, TUndefined]>;
export function httpUrl(env: string, options: Doc & { default?: string } = {}): TSchema {
  const keywords = { ...options, env, accepts: 'an http(s) URL', parse: parseHttpUrl };
  if (options.default !== undefined) return Type.String(keywords);
  return Type.Union([Type.String(), Type.Undefined()], { ...keywords, default: undefined });
}

function parseHttpUrl(raw: string): string {
  let protocol: string;
  try {
    protocol = new URL(raw).protocol;
  } catch {
    throw new Refusal();
  }
  if (protocol !== 'http:' && protocol !== 'https:') throw new Refusal();
  return raw.replace(/\/+$/, '');
}

/** A host name, or `*.` and a domain (any subdomain of it); lower case. */
// A host name, `*.` and a domain, or a host with its port (`127.0.0.1:8443`: a test's service).
const HOST_PATTERN =
  /^((\*\.)?[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*|[a-z0-9]([a-z0-9.-]*[a-z0-9])?:\d{1,5})$/;

/** A comma-separated list of host names (`*.example.com` for any subdomain), trimmed and lower-cased. */
export function hostList(env: string, options: { default: string[] } & Doc): TArray<TString> {
  return Type.Array(Type.String({ pattern: HOST_PATTERN.source }), {
    ...options,
    env,
    accepts:
      'host names separated by commas (*.example.com for any subdomain, host:port for another port than 443)',
    parse: parseHostList,
  });
}

function parseHostList(raw: string): string[] {
  const hosts = raw
    .split(',')
    .map((host) => host.trim().toLowerCase())
    .filter((host) => host !== '');
  for (const host of hosts) if (!HOST_PATTERN.test(host)) throw new Refusal(host);
  return hosts;
}

/** A directory, relative to the working directory unless absolute. */
export function directory(env: string, options: { default: string } & Doc): TString {
  const absolute = (raw: string, cwd: string) => (isAbsolute(raw) ? raw : resolve(cwd, raw));
  return Type.String({
    description: options.description,
    env,
    accepts: 'a path',
    defaultFrom: (_earlier: ReadEarlier, cwd: string) => absolute(options.default, cwd),
    parse: absolute,
  });
}

type Setting = TSchema & SettingKeywords<unknown>;

/** Reads every setting of `schema` from `env`, in the order they are declared. */
/**
 * The settings `schema` declares, read from `env`. Every bad variable is named at once (an operator
 * fixing a file learns its faults in one start): thrown together, or added to `faults` when the
 * caller collects them with its own (a bad variable then reads as its default).
 */
export function readSettings<S extends TObject>(
  schema: S,
  env: Env,
  cwd: string,
  collected?: string[],
): Static<S> {
  const values = new Map<string, unknown>();
  const faults = collected ?? [];
  const earlier: ReadEarlier = (variable) => {
    if (!values.has(variable)) throw new Error(`${variable} is read before it is declared`);
    return values.get(variable);
  };
  const readSetting = (setting: Setting): unknown => {
    const raw = env[setting.env];
    let value: unknown;
    if (raw === undefined || raw === '') {
      value = 'defaultFrom' in setting ? setting.defaultFrom(earlier, cwd) : setting.default;
    } else {
      try {
        value = parseGiven(setting, raw, cwd);
      } catch (error) {
        if (!(error instanceof ConfigError)) throw error;
        faults.push(error.message);
        // Later defaults that follow this variable read its default meanwhile.
        value = 'defaultFrom' in setting ? setting.defaultFrom(earlier, cwd) : setting.default;
      }
    }
    values.set(setting.env, value);
    return value;
  };
  const readObject = (object: TObject): Record<string, unknown> => {
    const result: Record<string, unknown> = {};
    for (const [key, property] of Object.entries(object.properties)) {
      result[key] = Type.IsObject(property) ? readObject(property) : readSetting(property as Setting);
    }
    return result;
  };
  const settings = readObject(schema) as Static<S>;
  if (collected === undefined && faults.length > 0) throw new ConfigError(faults.join('\n'));
  return settings;
}

function parseGiven(setting: Setting, raw: string, cwd: string): unknown {
  const refuse = (refusal: Refusal) => {
    const shown = setting.hidden ? '<hidden>' : (refusal.shown ?? raw);
    return new ConfigError(
      `${setting.env}=${JSON.stringify(shown)} is invalid: expected ${refusal.accepts ?? setting.accepts}`,
    );
  };
  let value: unknown;
  try {
    value = setting.parse ? setting.parse(raw, cwd) : raw;
  } catch (error) {
    if (error instanceof Refusal) throw refuse(error);
    throw error;
  }
  if (!Value.Check(setting, value)) throw refuse(new Refusal());
  return value;
}
