// The catalogues (src/lib/catalogues/fr.ts, en.ts) and the code that reads them hold together:
// - both languages have the same keys, nested parts included, of the same kinds (text, function,
//   part), functions with the same number of parameters, and the same figures and field names in
//   what they say (called with the same sample arguments);
// - the code names only keys that exist where it indexes a catalogue with a string;
// - no text is read from a catalogue at module load (it would stay in the language of no request:
//   French, for every caller);
// - no sentence is written in route, service or plugin code instead of a catalogue.
// test/architecture/catalogues.test.ts runs each check on the real tree and on planted faults.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The names src/lib/messages.ts exports for the catalogue's parts, each read in the current language. */
export const CATALOGUE_PARTS = [
  'messages',
  'adminTexts',
  'validationMessages',
  'otpTexts',
  'accountTexts',
  'paymentTexts',
  'withdrawalTexts',
  'pushTexts',
] as const;

// ---------------------------------------------------------------------------------------------
// Same keys, kinds, arity and figures in every language.

/**
 * What must read the same in every language: figures (`7`, `2048`, `+237690000000`), field names
 * and paths (`teams_details.date`, `forfeit_balance`), header names (`Idempotency-Key`).
 */
const INVARIANT =
  /\+?\d+|[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?:\.[a-z0-9_]+)*|[a-z]{2,}\.[a-z_]{2,}|[A-Z][a-z]+(?:-[A-Z][A-Za-z]*)+/g;

function invariants(text: string): string[] {
  return [...text.matchAll(INVARIANT)].map((match) => match[0]).sort();
}

/**
 * Sample arguments a text function is called with, in families tried in order until one makes a
 * French text: figures (1 for a singular, 7 for a plural), then a field name and figures, then a
 * field name and a list of values, then names. Every set of the first family that works is compared.
 */
function sampleFamilies(arity: number): unknown[][][] {
  const figures = (first: number) => Array.from({ length: arity }, (_, i) => first + i * 13);
  return [
    [figures(1), figures(7), figures(60)],
    [['sample_field', ...figures(7).slice(1)]],
    [['sample_field', ['first_value', 'second_value']].slice(0, arity)],
    [Array.from({ length: arity }, (_, i) => `sample_${i}`)],
  ];
}

function callable(fn: (...args: unknown[]) => unknown, args: unknown[]): string | undefined {
  try {
    const result = fn(...args);
    return typeof result === 'string' ? result : undefined;
  } catch {
    return undefined;
  }
}

function kindOf(value: unknown): string {
  if (typeof value === 'function') return 'function';
  if (typeof value === 'object' && value !== null) return 'part';
  return typeof value;
}

/** Every difference between the reference catalogue (French) and another language's. */
export function catalogueProblems(catalogues: Record<string, unknown>, reference = 'fr'): string[] {
  const problems: string[] = [];
  const base = catalogues[reference];
  for (const [language, other] of Object.entries(catalogues)) {
    if (language === reference) continue;
    compare(base, other, reference, language, '', problems);
  }
  return problems;
}

function compare(
  base: unknown,
  other: unknown,
  reference: string,
  language: string,
  path: string,
  problems: string[],
): void {
  const where = path || '(catalogue)';
  if (kindOf(base) !== kindOf(other)) {
    problems.push(`${where}: a ${kindOf(base)} in ${reference}, a ${kindOf(other)} in ${language}`);
    return;
  }
  if (typeof base === 'string') {
    const expected = invariants(base).join(' ');
    const found = invariants(other as string).join(' ');
    if (expected !== found)
      problems.push(`${where}: ${reference} names [${expected}], ${language} names [${found}]`);
    return;
  }
  if (typeof base === 'function') {
    const fn = base as (...args: unknown[]) => unknown;
    const otherFn = other as (...args: unknown[]) => unknown;
    if (fn.length !== otherFn.length) {
      problems.push(
        `${where}: takes ${fn.length} parameter(s) in ${reference}, ${otherFn.length} in ${language}`,
      );
      return;
    }
    const family = sampleFamilies(fn.length).find((sets) => sets.every((args) => callable(fn, args)));
    if (!family) {
      problems.push(`${where}: no sample arguments make a text in ${reference}`);
      return;
    }
    for (const args of family) {
      const said = callable(fn, args) as string;
      const otherSaid = callable(otherFn, args);
      if (otherSaid === undefined) {
        problems.push(`${where}(${args.map(String).join(', ')}): fails in ${language}`);
        continue;
      }
      const expected = invariants(said).join(' ');
      const found = invariants(otherSaid).join(' ');
      if (expected !== found)
        problems.push(
          `${where}(${args.map(String).join(', ')}): ${reference} names [${expected}], ${language} names [${found}]`,
        );
    }
    return;
  }
  if (kindOf(base) === 'part') {
    const baseKeys = Object.keys(base as object);
    const otherKeys = Object.keys(other as object);
    for (const key of baseKeys)
      if (!otherKeys.includes(key)) problems.push(`${path ? `${path}.` : ''}${key}: missing in ${language}`);
    for (const key of otherKeys)
      if (!baseKeys.includes(key)) problems.push(`${path ? `${path}.` : ''}${key}: missing in ${reference}`);
    for (const key of baseKeys) {
      if (!otherKeys.includes(key)) continue;
      compare(
        (base as Record<string, unknown>)[key],
        (other as Record<string, unknown>)[key],
        reference,
        language,
        path ? `${path}.${key}` : key,
        problems,
      );
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The code's side: keys that exist, texts read when used, no prose outside the catalogues.

/** Source files by path from the root (`src/…`). */
export type Sources = Record<string, string>;

function parse(path: string, text: string): ts.SourceFile {
  return ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
}

function lineOf(file: ts.SourceFile, node: ts.Node): number {
  return file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
}

/** The catalogue's parts a file imports from src/lib/messages.ts, by their local names. */
function importedParts(file: ts.SourceFile): Map<string, string> {
  const names = new Map<string, string>();
  for (const statement of file.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    if (!/(?:^|\/)messages(?:\.js)?$/.test(statement.moduleSpecifier.text)) continue;
    const bindings = statement.importClause?.namedBindings;
    if (!bindings || !ts.isNamedImports(bindings)) continue;
    for (const element of bindings.elements) {
      const imported = (element.propertyName ?? element.name).text;
      if ((CATALOGUE_PARTS as readonly string[]).includes(imported)) names.set(element.name.text, imported);
    }
  }
  return names;
}

/** The catalogue files and messages.ts itself define the parts; everything else reads them. */
function readsCatalogues(path: string): boolean {
  return !path.startsWith('src/lib/catalogues/') && path !== 'src/lib/messages.ts';
}

/**
 * Dynamic lookups (`messages[key]`) whose key is not a literal, each with why its key exists: the
 * key's type is the catalogue's own key type, so TypeScript checks it.
 */
export const DYNAMIC_LOOKUPS: { file: string; reason: string }[] = [
  { file: 'src/plugins/app/errors.ts', reason: 'keys typed MessageKey (keyof the catalogue’s messages)' },
  {
    file: 'src/modules/devices/push.ts',
    reason: 'event types typed UserEventType, the key type of pushTexts; an unknown one falls back',
  },
];

/** A literal key that the catalogue does not have, or a dynamic lookup nobody vouched for. */
export function keyProblems(
  sources: Sources,
  catalogue: Record<string, unknown>,
  dynamic = DYNAMIC_LOOKUPS,
): string[] {
  const problems: string[] = [];
  for (const [path, text] of Object.entries(sources)) {
    if (!readsCatalogues(path)) continue;
    const file = parse(path, text);
    const parts = importedParts(file);
    const isPartName = (node: ts.Node): node is ts.Identifier =>
      ts.isIdentifier(node) && parts.has(node.text);
    const visit = (node: ts.Node) => {
      if (ts.isElementAccessExpression(node) && isPartName(node.expression)) {
        const part = catalogue[parts.get(node.expression.text) as string] as
          | Record<string, unknown>
          | undefined;
        const key = node.argumentExpression;
        if (ts.isStringLiteralLike(key)) {
          if (!part || !(key.text in part))
            problems.push(
              `${path}:${lineOf(file, node)}: ${node.expression.text}['${key.text}'] is not in the catalogue`,
            );
        } else if (!dynamic.some((entry) => entry.file === path)) {
          problems.push(
            `${path}:${lineOf(file, node)}: ${node.getText(file)} looks a key up by a value no check vouches for`,
          );
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return problems;
}

/** Where a piece of code runs: at module load, while a plugin registers its routes, or later. */
type Moment = 'load' | 'registration' | 'later';

/** A plugin's body (its first parameter the Fastify instance) runs once, at registration. */
const REGISTERING_PARAMETER = /^(?:app|fastify|instance)$/;

function momentInside(node: ts.Node, outer: Moment): Moment {
  if (outer === 'later') return 'later';
  if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
    const first = node.parameters[0]?.name;
    return first && ts.isIdentifier(first) && REGISTERING_PARAMETER.test(first.text)
      ? 'registration'
      : 'later';
  }
  // An instance field is set at construction, when the instance is made.
  if (
    ts.isPropertyDeclaration(node) &&
    !node.modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.StaticKeyword)
  )
    return 'later';
  return outer;
}

/**
 * A part of the catalogue read where no request is under way: at module load (a top-level constant,
 * a static field) or while a plugin registers its routes (a table of texts built in the plugin's
 * body), outside every function that runs later.
 */
export function frozenTextProblems(sources: Sources): string[] {
  const problems: string[] = [];
  for (const [path, text] of Object.entries(sources)) {
    if (!readsCatalogues(path)) continue;
    const file = parse(path, text);
    const parts = importedParts(file);
    const isPartName = (node: ts.Node): node is ts.Identifier =>
      ts.isIdentifier(node) && parts.has(node.text);
    const visit = (node: ts.Node, moment: Moment) => {
      const when = moment === 'load' ? 'at module load' : 'at registration';
      if (
        moment !== 'later' &&
        (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) &&
        isPartName(node.expression)
      ) {
        problems.push(`${path}:${lineOf(file, node)}: ${node.getText(file)} is read ${when}`);
      }
      if (moment !== 'later' && ts.isVariableDeclaration(node) && ts.isObjectBindingPattern(node.name)) {
        const from = node.initializer;
        if (from && ts.isIdentifier(from) && isPartName(from))
          problems.push(`${path}:${lineOf(file, node)}: texts taken out of ${from.text} ${when}`);
      }
      ts.forEachChild(node, (child) => visit(child, momentInside(child, moment)));
    };
    visit(file, 'load');
  }
  return problems;
}

/** Where prose is looked for: route and service code of every module, and the plugins. */
export function checkedForProse(path: string): boolean {
  return /^src\/modules\/[^/]+\/(routes|service)\.ts$/.test(path) || /^src\/plugins\/.+\.ts$/.test(path);
}

/** Literals that are prose but are not texts of the API's answers, each with its reason. */
export const PROSE_EXCLUSIONS: { file: string; startsWith: string; reason: string }[] = [
  {
    file: 'src/modules/track-record/service.ts',
    startsWith: 'Fréquences historiques',
    reason: 'a label inside the track record’s `data`, not a message: data is never translated',
  },
  {
    file: 'src/modules/account/service.ts',
    startsWith: 'wallet_operations rows',
    reason: 'the deletion report for the operator’s CLI, which speaks English',
  },
  {
    file: 'src/modules/account/service.ts',
    startsWith: 'kept, pointing at',
    reason: 'the deletion report for the operator’s CLI, which speaks English',
  },
  {
    file: 'src/modules/backups/service.ts',
    startsWith: '',
    reason: 'backups are an operator’s CLI command, which speaks English',
  },
  {
    file: 'src/money/checkout/flow.ts',
    startsWith: 'payment complete with another amount',
    reason: 'a failure reason kept for administrators and the log, not said to the payer',
  },
  {
    file: 'src/money/checkout/flow.ts',
    startsWith: 'payment never reached the provider',
    reason: 'a failure reason kept for administrators and the log, not said to the payer',
  },
  {
    file: 'src/modules/support/service.ts',
    startsWith: 'could not remove the attachment',
    reason: 'a log line (passed to the quiet remover, which logs it)',
  },
  {
    file: 'src/modules/metrics/service.ts',
    startsWith: '',
    reason: 'Prometheus help texts, read by operators',
  },
  {
    file: 'src/plugins/external/openapi.ts',
    startsWith: 'Propriétaire',
    reason: 'the OpenAPI document’s licence name, documentation for developers',
  },
];

/** Calls whose text goes to the log or to an operator, never to a client. */
const LOG_CALL = /(?:^|\.)(?:log|logger)\??\.(?:trace|debug|info|warn|error|fatal)$/;
/** `new SomethingError(…)`: an internal error (a 5xx hides it) or an operator's (CLI, English). */
const INTERNAL_ERROR = /Error$/;
/** Properties that document the API (OpenAPI, metrics help), for developers and operators. */
const DOCUMENTING = new Set(['summary', 'description', 'title', 'help', 'examples', 'example']);
/** Calls that document the API: a file response's description. */
const DOCUMENTING_CALL = new Set(['FileResponse']);
/** A word of prose: letters only (with an apostrophe or a trailing punctuation mark). */
const WORD = /^[\p{L}’']+[.,:;!?]?$/u;

function isProse(text: string): boolean {
  return (
    text
      .trim()
      .split(/\s+/)
      .filter((word) => WORD.test(word)).length >= 3
  );
}

function literalText(node: ts.Node): string | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node))
    return [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join('');
  return undefined;
}

/** Why a literal is not an answer's text, or undefined when it may be one. */
function excusedByContext(node: ts.Node, file: ts.SourceFile): boolean {
  for (let parent = node.parent; parent; parent = parent.parent) {
    if (ts.isTaggedTemplateExpression(parent)) return true; // sql`…`
    if (ts.isPropertyAssignment(parent) && DOCUMENTING.has(parent.name.getText(file))) return true;
    if (ts.isCallExpression(parent)) {
      const callee = parent.expression.getText(file);
      if (LOG_CALL.test(callee) || DOCUMENTING_CALL.has(callee)) return true;
    }
    if (ts.isNewExpression(parent) && INTERNAL_ERROR.test(parent.expression.getText(file))) return true;
    // A variable named as documentation (`const streamDescription = '…'`).
    if (ts.isVariableDeclaration(parent) && /description$/i.test(parent.name.getText(file))) return true;
    if (ts.isFunctionLike(parent) || ts.isSourceFile(parent)) return false;
  }
  return false;
}

/** Sentences in route, service and plugin code that belong in the catalogues. */
export function proseProblems(sources: Sources, exclusions = PROSE_EXCLUSIONS): string[] {
  const problems: string[] = [];
  for (const [path, text] of Object.entries(sources)) {
    if (!checkedForProse(path)) continue;
    const file = parse(path, text);
    const visit = (node: ts.Node) => {
      const literal = literalText(node);
      if (literal !== undefined) {
        if (
          isProse(literal) &&
          !excusedByContext(node, file) &&
          !exclusions.some((entry) => entry.file === path && literal.startsWith(entry.startsWith))
        ) {
          problems.push(`${path}:${lineOf(file, node)}: "${literal.slice(0, 60)}" belongs in the catalogues`);
        }
        return;
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return problems;
}

/** Every TypeScript file under `src/`, by path from the root. */
export function readSources(root = ROOT): Sources {
  const sources: Sources = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith('.ts')) sources[relative(root, full)] = readFileSync(full, 'utf8');
    }
  };
  walk(join(root, 'src'));
  return sources;
}
