// The English analysis, written from the same numbers as the French one (analysis-text.ts), sentence
// for sentence: who is stronger and why, the expected goals, recent form, the pick and how sure the
// model is, and a caveat when data is thin. The phrasing is chosen with the same hash of the fixture,
// so the same input always gives the same text. It never promises an outcome and never urges a stake.
// English numbers: a decimal point, `54%`; plurals by English's rules.
import type { AnalysisFacts } from './analysis-text.js';
import type { Form } from './types.js';

/** FNV-1a, as the French text uses: the same fixture picks the same place in each list. */
function hash(text: string): number {
  let value = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    value ^= text.charCodeAt(i);
    value = Math.imul(value, 0x01000193);
  }
  return value >>> 0;
}

function choose(options: readonly string[], seed: number, salt: number): string {
  return options[(seed + salt * 7919) % options.length]!;
}

const plural = new Intl.PluralRules('en');

/** `1 goal`, `2 goals`: the noun's form for `count` by English's plural rules. */
function counted(count: number, one: string, other: string): string {
  return `${count} ${plural.select(count) === 'one' ? one : other}`;
}

export function percentEn(value: number): string {
  return `${Math.round(value * 100)}%`;
}

function decimal(value: number, digits = 1): string {
  return value.toFixed(digits);
}

/** The form letters in English: the engine records French ones (V win, N draw, D defeat). */
export function englishForm(results: readonly string[]): string {
  return results.map((letter) => (letter === 'V' ? 'W' : letter === 'N' ? 'D' : 'L')).join('');
}

function certainty(confidence: number): string {
  if (confidence >= 0.7) return 'a strong trend, though not a certainty';
  if (confidence >= 0.55) return 'a clear trend';
  if (confidence >= 0.42) return 'a moderate trend';
  return 'a fragile indication: the uncertainty remains large';
}

function formText(name: string, form: Form | null): string | null {
  if (!form || form.results.length === 0) return null;
  const wins = form.results.filter((letter) => letter === 'V').length;
  const draws = form.results.filter((letter) => letter === 'N').length;
  const losses = form.results.length - wins - draws;
  const parts = [
    wins > 0 ? counted(wins, 'win', 'wins') : null,
    draws > 0 ? counted(draws, 'draw', 'draws') : null,
    losses > 0 ? counted(losses, 'defeat', 'defeats') : null,
  ].filter((part) => part !== null);
  const scored = `${counted(form.goalsFor, 'goal', 'goals')} scored`;
  const conceded = `${form.goalsAgainst} conceded`;
  return `${name} (${englishForm(form.results)}: ${parts.join(', ')}, ${scored}, ${conceded})`;
}

function strengthText(team: AnalysisFacts['home']): string | null {
  if (!team.known) return null;
  const traits: string[] = [];
  if (team.attack > 0.25) traits.push('one of the most productive attacks in the league');
  else if (team.attack < -0.2) traits.push('an attack that struggles to score');
  if (team.defence > 0.25) traits.push('a very solid defence');
  else if (team.defence < -0.2) traits.push('a defence that concedes a lot');
  if (traits.length === 0) return null;
  return `${team.name} has ${traits.join(' and ')}`;
}

function stakesText(facts: AnalysisFacts): string | null {
  const { home, away } = facts.stakes;
  if (home === 'live' && away === 'dead') {
    return `End of season: ${facts.away.name} has little left to play for in the table, unlike ${facts.home.name}; the model takes it into account.`;
  }
  if (home === 'dead' && away === 'live') {
    return `End of season: ${facts.home.name} has little left to play for in the table, unlike ${facts.away.name}; the model takes it into account.`;
  }
  if (home === 'dead' && away === 'dead')
    return 'End of season with nothing real at stake in the table for either side.';
  return null;
}

function opening(facts: AnalysisFacts, seed: number): string {
  const { home, away, oneXTwo } = facts;
  const gap = oneXTwo.home - oneXTwo.away;
  if (oneXTwo.home >= 0.6) {
    return choose(
      [
        `${home.name} are clear favourites at home against ${away.name}.`,
        `On paper, ${home.name} dominate this match against ${away.name}, with their crowd behind them.`,
        `${home.name} host ${away.name} with a clear advantage according to the model.`,
      ],
      seed,
      1,
    );
  }
  if (oneXTwo.away >= 0.55) {
    return choose(
      [
        `${away.name} are favourites despite the trip to ${home.name}.`,
        `Even away from home, ${away.name} have the model’s favour against ${home.name}.`,
      ],
      seed,
      1,
    );
  }
  if (Math.abs(gap) < 0.1) {
    return choose(
      [
        `A very open game between ${home.name} and ${away.name}: neither side really stands out.`,
        `${home.name} and ${away.name} are closely matched according to the model.`,
        `A balanced match ahead between ${home.name} and ${away.name}.`,
      ],
      seed,
      1,
    );
  }
  if (gap > 0) {
    return choose(
      [
        `${home.name} have a slight edge over ${away.name}, helped by home ground.`,
        `A moderate advantage for ${home.name}, who host ${away.name}.`,
      ],
      seed,
      1,
    );
  }
  return choose(
    [
      `${away.name} start with a slight edge over ${home.name}, despite the trip.`,
      `The model leans slightly towards ${away.name}, visiting ${home.name}.`,
    ],
    seed,
    1,
  );
}

/** `2020-03-08` → `8 March 2020`. */
function englishDate(day: string): string {
  const [year, month, date] = day.split('-').map(Number);
  const months = [
    'January',
    'February',
    'March',
    'April',
    'May',
    'June',
    'July',
    'August',
    'September',
    'October',
    'November',
    'December',
  ];
  return `${date} ${months[(month ?? 1) - 1]} ${year}`;
}

function caveat(facts: AnalysisFacts): string | null {
  const stale = facts.league.stale;
  if (stale) {
    const league = facts.league.name ?? 'this league';
    return stale.latestResult
      ? `Note: our latest results for ${league} date from ${englishDate(stale.latestResult)}. The teams may have changed a lot since; this estimate rests on old data and should be read with great caution.`
      : `Note: we have no recent result for ${league}. This estimate rests on general benchmarks and should be read with great caution.`;
  }
  if (!facts.league.known) {
    return 'This league is not covered by our data: the estimate rests on general benchmarks (home advantage included) and should be read with caution.';
  }
  const unknown = [facts.home, facts.away].filter((team) => !team.known).map((team) => team.name);
  if (unknown.length === 2) {
    return 'Neither team is in our data: the model gives them the typical level of a promoted side, so reliability is limited.';
  }
  if (unknown.length === 1) {
    return `${unknown[0]} is not in our data: the model gives them the typical level of a promoted side, so reliability is limited.`;
  }
  if (facts.dataQuality.level === 'low') {
    return 'Few recent matches are available for these teams: the estimate stays cautious.';
  }
  return null;
}

function marketSentence(facts: AnalysisFacts, seed: number): string {
  const sure = certainty(facts.confidence);
  const chance = percentEn(facts.confidence);
  const total = decimal(facts.expectedGoals.home + facts.expectedGoals.away);
  switch (facts.market) {
    case 'btts':
      return facts.pick === 'yes'
        ? `Both attacks should find the net: an estimated ${chance} chance that each team scores, ${sure}.`
        : `At least one of the two teams could fail to score: ${chance} according to the model, ${sure}.`;
    case 'over_under_2_5':
      return facts.pick === 'over'
        ? `The expected total (${total} goals) points to a match with three goals or more: ${chance}, ${sure}.`
        : `With ${total} goals expected in all, a match with two goals or fewer is the likeliest scenario: ${chance}, ${sure}.`;
    case 'exact_score': {
      const others = facts.scores
        .slice(1, 3)
        .map((entry) => `${entry.score} (${percentEn(entry.probability)})`)
        .join(' and ');
      return `The likeliest score is ${facts.pick} (${chance}), followed by ${others}. An exact score remains very uncertain: even the likeliest rarely happens.`;
    }
    case 'double_chance':
      return `Double chance “${facts.pickLabel}”: estimated probability ${chance}, ${sure}.`;
    default:
      return choose(
        [
          `Our reading: ${facts.pick === 'draw' ? 'a draw' : facts.pickLabel} (${chance}), ${sure}.`,
          `Likeliest outcome: ${facts.pickLabel} (${chance}), ${sure}.`,
        ],
        seed,
        3,
      );
  }
}

function fullAnalysisExtras(facts: AnalysisFacts): string {
  const btts = facts.bttsYes >= 0.5 ? 'both teams scoring' : 'at least one team failing to score';
  const goals = facts.over25 >= 0.5 ? 'over 2.5 goals' : 'under 2.5 goals';
  const top = facts.scores[0];
  return `1X2 split: ${percentEn(facts.oneXTwo.home)} / ${percentEn(facts.oneXTwo.draw)} / ${percentEn(facts.oneXTwo.away)}. On goals, the model leans towards ${goals} (${percentEn(Math.max(facts.over25, 1 - facts.over25))}) and ${btts} (${percentEn(Math.max(facts.bttsYes, 1 - facts.bttsYes))})${top ? `; likeliest score: ${top.score}` : ''}.`;
}

const CLOSINGS = [
  'Football keeps its share of the unexpected: these figures are probabilities, not promises.',
  'Read this as an estimate: a match can always defy the probabilities.',
  'These probabilities shed light on the match without writing its outcome.',
];

export function writeAnalysisEn(facts: AnalysisFacts): string {
  const seed = hash(`${facts.home.name}|${facts.away.name}|${facts.market}`);
  const sentences: string[] = [opening(facts, seed)];

  const strengths = [strengthText(facts.home), strengthText(facts.away)].filter((text) => text !== null);
  if (strengths.length > 0) sentences.push(`${strengths.join('; ')}.`);
  const stakes = stakesText(facts);
  if (stakes) sentences.push(stakes);

  const home = facts.expectedGoals.home;
  sentences.push(
    choose(
      [
        `Expected goals: ${decimal(home)} for ${facts.home.name}, ${decimal(facts.expectedGoals.away)} for ${facts.away.name}.`,
        `The model expects about ${decimal(home)} ${decimal(home) === '1.0' ? 'goal' : 'goals'} for ${facts.home.name} and ${decimal(facts.expectedGoals.away)} for ${facts.away.name}.`,
      ],
      seed,
      2,
    ),
  );

  const forms = [
    formText(facts.home.name, facts.home.form),
    formText(facts.away.name, facts.away.form),
  ].filter((text) => text !== null);
  if (forms.length > 0) sentences.push(`Over the last five matches: ${forms.join('; ')}.`);

  sentences.push(marketSentence(facts, seed));
  if (facts.market === 'full_analysis') sentences.push(fullAnalysisExtras(facts));

  const warning = caveat(facts);
  if (warning) sentences.push(warning);
  sentences.push(choose(CLOSINGS, seed, 4));
  return sentences.join(' ');
}
