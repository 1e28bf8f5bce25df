// One catalogue per language, checked (issue 40): each check of scripts/architecture/catalogues.ts
// catches what it says it catches (a planted catalogue or source passes, each planted fault is
// reported), then the real catalogues and the real code must report nothing.
import { describe, expect, it } from 'vitest';
import {
  catalogueProblems,
  frozenTextProblems,
  keyProblems,
  proseProblems,
  readSources,
  type Sources,
} from '../../scripts/architecture/catalogues.js';
import { en } from '../../src/lib/catalogues/en.js';
import { fr } from '../../src/lib/catalogues/fr.js';

// biome-ignore lint/suspicious/noExplicitAny: the faults planted change every part's shape
type Planted = Record<string, any>;

/** Two languages that agree: texts, a function with a figure, a nested part. */
function plantedCatalogues(): { fr: Planted; en: Planted } {
  return {
    fr: {
      messages: { ok: 'OK.', tooLarge: 'Le champ teams_details ne doit pas dépasser 2048 octets.' },
      withdrawalTexts: { debit: (amount: number) => `Retrait de ${amount} XAF` },
      validationMessages: {
        enum: (field: string, values: readonly unknown[]) =>
          `Le champ ${field} doit valoir : ${values.map(String).join(', ')}.`,
      },
      pushTexts: { 'payment.failed': { title: 'Paiement non abouti', body: 'Réessayez.' } },
    },
    en: {
      messages: { ok: 'OK.', tooLarge: 'The teams_details field must not exceed 2048 bytes.' },
      withdrawalTexts: { debit: (amount: number) => `Withdrawal of ${amount.toLocaleString('en')} XAF` },
      validationMessages: {
        enum: (field: string, values: readonly unknown[]) =>
          `The ${field} field must be one of: ${values.map(String).join(', ')}.`,
      },
      pushTexts: { 'payment.failed': { title: 'Payment not completed', body: 'Try again.' } },
    },
  };
}

function catalogueProblemsAfter(change: (c: ReturnType<typeof plantedCatalogues>) => void): string[] {
  const catalogues = plantedCatalogues();
  change(catalogues);
  return catalogueProblems(catalogues);
}

describe('the catalogues agree', () => {
  it('accept two planted languages that agree', () => {
    expect(catalogueProblems(plantedCatalogues())).toEqual([]);
  });

  it('refuse a key in one language only, at the top and in a nested part', () => {
    expect(catalogueProblemsAfter((c) => delete c.en.messages.ok)).toEqual(['messages.ok: missing in en']);
    expect(
      catalogueProblemsAfter((c) => {
        c.en.messages.extra = 'Extra.';
      }),
    ).toEqual(['messages.extra: missing in fr']);
    expect(catalogueProblemsAfter((c) => delete c.en.pushTexts['payment.failed'].body)).toEqual([
      'pushTexts.payment.failed.body: missing in en',
    ]);
    expect(catalogueProblemsAfter((c) => delete c.fr.withdrawalTexts)).toEqual([
      'withdrawalTexts: missing in fr',
    ]);
  });

  it('refuse a key of another kind (a text where the other has a function)', () => {
    expect(
      catalogueProblemsAfter((c) => {
        c.en.withdrawalTexts.debit = 'Withdrawal';
      }),
    ).toEqual(['withdrawalTexts.debit: a function in fr, a string in en']);
  });

  it('refuse functions of different arity', () => {
    expect(
      catalogueProblemsAfter((c) => {
        c.en.withdrawalTexts.debit = () => 'Withdrawal';
      }),
    ).toEqual(['withdrawalTexts.debit: takes 1 parameter(s) in fr, 0 in en']);
  });

  it('refuse a placeholder dropped, or a figure or field name changed', () => {
    const dropped = catalogueProblemsAfter((c) => {
      c.en.withdrawalTexts.debit = (_amount: number) => 'Withdrawal';
    });
    expect(dropped).toContain('withdrawalTexts.debit(1): fr names [1], en names []');
    expect(
      catalogueProblemsAfter((c) => {
        c.en.validationMessages.enum = (field: string, _values: readonly unknown[]) =>
          `The ${field} field is wrong.`;
      }),
    ).toEqual([
      'validationMessages.enum(sample_field, first_value,second_value): fr names [first_value sample_field second_value], en names [sample_field]',
    ]);
    expect(
      catalogueProblemsAfter((c) => {
        c.en.messages.tooLarge = 'The teams field must not exceed 2000 bytes.';
      }),
    ).toEqual(['messages.tooLarge: fr names [2048 teams_details], en names [2000]']);
  });

  it('a function that throws in one language is reported', () => {
    expect(
      catalogueProblemsAfter((c) => {
        c.en.withdrawalTexts.debit = (amount: number) => {
          if (amount > 5) throw new Error('no');
          return `Withdrawal of ${amount} XAF`;
        };
      }),
    ).toEqual(['withdrawalTexts.debit(7): fails in en', 'withdrawalTexts.debit(60): fails in en']);
  });

  it('the real French and English catalogues agree', () => {
    expect(catalogueProblems({ fr, en })).toEqual([]);
  });
});

const IMPORT = "import { messages, pushTexts } from '../../lib/messages.js';\n";

describe('the code names keys that exist', () => {
  it('accept a literal key the catalogue has, and a local array named like a part', () => {
    const sources: Sources = {
      'src/modules/x/service.ts': `${IMPORT}export const f = () => messages['ok'];\n`,
      'src/providers/y.ts': 'const messages = [1];\nexport const g = () => messages[0];\n',
    };
    expect(keyProblems(sources, plantedCatalogues().fr, [])).toEqual([]);
  });

  it('refuse a literal key the catalogue lacks', () => {
    const sources: Sources = {
      'src/modules/x/service.ts': `${IMPORT}export const f = () => messages['nope'];\n`,
    };
    expect(keyProblems(sources, plantedCatalogues().fr, [])).toEqual([
      "src/modules/x/service.ts:2: messages['nope'] is not in the catalogue",
    ]);
  });

  it('refuse a dynamic lookup no entry vouches for, accept it once vouched for', () => {
    const sources: Sources = {
      'src/modules/x/service.ts': `${IMPORT}export const f = (key: string) => pushTexts[key];\n`,
    };
    expect(keyProblems(sources, plantedCatalogues().fr, [])).toEqual([
      'src/modules/x/service.ts:2: pushTexts[key] looks a key up by a value no check vouches for',
    ]);
    expect(
      keyProblems(sources, plantedCatalogues().fr, [{ file: 'src/modules/x/service.ts', reason: 'typed' }]),
    ).toEqual([]);
  });

  it('the real code names only keys that exist', () => {
    expect(keyProblems(readSources(), fr)).toEqual([]);
  });
});

describe('no text is read at module load', () => {
  it('accept reads inside functions, methods, defaults and instance fields', () => {
    const sources: Sources = {
      'src/lib/x.ts': [
        IMPORT,
        'export function f() { return messages.ok; }',
        'export const g = () => messages.ok;',
        'export class E extends Error { text = messages.ok; constructor(m = messages.ok) { super(m); } }',
        "const keys = { a: 'ok' } as const;",
      ].join('\n'),
    };
    expect(frozenTextProblems(sources)).toEqual([]);
  });

  it('refuse a constant, a map of texts and a destructuring taken at load', () => {
    const sources: Sources = {
      'src/plugins/app/x.ts': [
        IMPORT,
        'const text = messages.ok;',
        "const byStatus: Record<number, string> = { 404: messages['ok'] };",
        'const { ok } = messages;',
        'class C { static text = messages.ok; }',
      ].join('\n'),
    };
    expect(frozenTextProblems(sources)).toEqual([
      'src/plugins/app/x.ts:3: messages.ok is read at module load',
      "src/plugins/app/x.ts:4: messages['ok'] is read at module load",
      'src/plugins/app/x.ts:5: texts taken out of messages at module load',
      'src/plugins/app/x.ts:6: messages.ok is read at module load',
    ]);
  });

  it('refuse a text read while a plugin registers its routes, not inside its handlers', () => {
    const sources: Sources = {
      'src/modules/x/routes.ts': [
        IMPORT,
        'export default async function routes(app: any) {',
        "  for (const [verb, text] of [['on', messages.ok]]) app.post(verb, async () => ({ message: text }));",
        "  app.get('/x', async () => ({ message: messages.ok }));",
        "  const later = [['off', () => messages.ok]];",
        '}',
      ].join('\n'),
    };
    expect(frozenTextProblems(sources)).toEqual([
      'src/modules/x/routes.ts:4: messages.ok is read at registration',
    ]);
  });

  it('the real code reads no text at module load', () => {
    expect(frozenTextProblems(readSources())).toEqual([]);
  });
});

describe('no sentence outside the catalogues', () => {
  const clean = [
    IMPORT,
    "import { sql } from 'drizzle-orm';",
    'export async function handler(app: any, id: number) {',
    "  app.log.warn({ id }, 'payment provider could not be asked; will look again');",
    '  await app.db.execute(sql`SELECT id FROM users WHERE blocked IS NOT TRUE AND deleted_at IS NULL`);',
    "  if (!id) throw new Error('the amount must be a whole number of credits');",
    "  reply.header('cache-control', 'public, max-age=60, immutable');",
    "  const schema = { summary: 'Liste des pronostics de l’utilisateur', description: 'Une longue phrase ici.' };",
    "  return { message: messages.ok, code: 'INSUFFICIENT_CREDITS', header: 'Accept-Language', at: 'pronostic:42:debit' };",
    '}',
  ].join('\n');

  it('accept logs, SQL, internal errors, header values, API documentation and codes', () => {
    expect(proseProblems({ 'src/modules/x/service.ts': clean }, [])).toEqual([]);
  });

  it('refuse a French or an English sentence in a route, a service or a plugin', () => {
    const sources: Sources = {
      'src/modules/x/routes.ts': `${clean}\nexport const a = () => ({ message: 'Votre pronostic est prêt.' });\n`,
      'src/modules/x/service.ts': `${clean}\nexport const b = (max: number) => [\`The maximum is \${max} per day.\`];\n`,
      'src/plugins/app/y.ts': `${clean}\nexport const c = () => { throw new NotFound('Nothing was found here.'); };\n`,
      // Not route, service or plugin code: not looked at.
      'src/modules/x/views.ts': "export const d = 'Not looked at here.';\n",
    };
    expect(proseProblems(sources, [])).toEqual([
      'src/modules/x/routes.ts:12: "Votre pronostic est prêt." belongs in the catalogues',
      'src/modules/x/service.ts:12: "The maximum is  per day." belongs in the catalogues',
      'src/plugins/app/y.ts:12: "Nothing was found here." belongs in the catalogues',
    ]);
  });

  it('accept a sentence its exclusion names, with a reason', () => {
    const sources: Sources = { 'src/modules/x/routes.ts': "export const a = 'Kept for the operator.';\n" };
    expect(
      proseProblems(sources, [{ file: 'src/modules/x/routes.ts', startsWith: 'Kept', reason: 'CLI' }]),
    ).toEqual([]);
  });

  it('the real route, service and plugin code holds no sentence', () => {
    expect(proseProblems(readSources())).toEqual([]);
  });
});
