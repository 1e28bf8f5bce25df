// The French analysis written from the model's numbers: who is stronger and why, the expected
// goals, recent form, the pick and how sure the model is, and a caveat when data is thin.
// Phrasings vary with the situation and, among equivalents, with a hash of the fixture, so the
// same input always gives the same text. It never promises an outcome and never urges a stake.
import type { Stake } from './stakes.js';
import type { DataQuality, Form, MarketName, TeamContext } from './types.js';

export interface AnalysisFacts {
  market: MarketName;
  pick: string;
  pickLabel: string;
  confidence: number;
  home: TeamContext & { attack: number; defence: number };
  away: TeamContext & { attack: number; defence: number };
  league: { name: string | null; known: boolean; stale?: { latestResult: string | null } };
  oneXTwo: { home: number; draw: number; away: number };
  bttsYes: number;
  over25: number;
  scores: Array<{ score: string; probability: number }>;
  expectedGoals: { home: number; away: number };
  dataQuality: DataQuality;
  /** End-of-season stakes, when judged (see stakes.ts). */
  stakes: { home: Stake | null; away: Stake | null };
}

/** FNV-1a: a stable, cheap hash to choose among equivalent phrasings. */
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

export function percent(value: number): string {
  return `${Math.round(value * 100)} %`;
}

export function decimal(value: number, digits = 1): string {
  return value.toFixed(digits).replace('.', ',');
}

function certainty(confidence: number): string {
  if (confidence >= 0.7) return 'une tendance forte, sans être une certitude';
  if (confidence >= 0.55) return 'une tendance nette';
  if (confidence >= 0.42) return 'une tendance modérée';
  return 'une indication fragile : l’incertitude reste grande';
}

function formText(name: string, form: Form | null): string | null {
  if (!form || form.results.length === 0) return null;
  const wins = form.results.filter((letter) => letter === 'V').length;
  const draws = form.results.filter((letter) => letter === 'N').length;
  const losses = form.results.length - wins - draws;
  const parts = [
    wins > 0 ? `${wins} victoire${wins > 1 ? 's' : ''}` : null,
    draws > 0 ? `${draws} nul${draws > 1 ? 's' : ''}` : null,
    losses > 0 ? `${losses} défaite${losses > 1 ? 's' : ''}` : null,
  ].filter((part) => part !== null);
  const scored = `${form.goalsFor} but${form.goalsFor > 1 ? 's' : ''} marqué${form.goalsFor > 1 ? 's' : ''}`;
  const conceded = `${form.goalsAgainst} encaissé${form.goalsAgainst > 1 ? 's' : ''}`;
  return `${name} (${form.results.join('')} : ${parts.join(', ')}, ${scored}, ${conceded})`;
}

function strengthText(team: AnalysisFacts['home']): string | null {
  if (!team.known) return null;
  const traits: string[] = [];
  if (team.attack > 0.25) traits.push('une attaque parmi les plus productives du championnat');
  else if (team.attack < -0.2) traits.push('une attaque qui peine à marquer');
  if (team.defence > 0.25) traits.push('une défense très solide');
  else if (team.defence < -0.2) traits.push('une défense qui concède beaucoup');
  if (traits.length === 0) return null;
  return `${team.name} présente ${traits.join(' et ')}`;
}

function stakesText(facts: AnalysisFacts): string | null {
  const { home, away } = facts.stakes;
  if (home === 'live' && away === 'dead') {
    return `Fin de saison : ${facts.away.name} n’a plus grand-chose à jouer au classement, contrairement à ${facts.home.name} ; le modèle en tient compte.`;
  }
  if (home === 'dead' && away === 'live') {
    return `Fin de saison : ${facts.home.name} n’a plus grand-chose à jouer au classement, contrairement à ${facts.away.name} ; le modèle en tient compte.`;
  }
  if (home === 'dead' && away === 'dead')
    return 'Fin de saison sans réel enjeu au classement pour les deux équipes.';
  return null;
}

function opening(facts: AnalysisFacts, seed: number): string {
  const { home, away, oneXTwo } = facts;
  const gap = oneXTwo.home - oneXTwo.away;
  if (oneXTwo.home >= 0.6) {
    return choose(
      [
        `${home.name} part nettement favori à domicile face à ${away.name}.`,
        `Sur le papier, ${home.name} domine ce match face à ${away.name}, avec l’appui de son public.`,
        `${home.name} reçoit ${away.name} avec un net avantage selon le modèle.`,
      ],
      seed,
      1,
    );
  }
  if (oneXTwo.away >= 0.55) {
    return choose(
      [
        `${away.name} est favori malgré le déplacement chez ${home.name}.`,
        `Même à l’extérieur, ${away.name} a les faveurs du modèle face à ${home.name}.`,
      ],
      seed,
      1,
    );
  }
  if (Math.abs(gap) < 0.1) {
    return choose(
      [
        `Rencontre très ouverte entre ${home.name} et ${away.name} : aucune équipe ne se détache vraiment.`,
        `${home.name} et ${away.name} se tiennent de près selon le modèle.`,
        `Match équilibré en vue entre ${home.name} et ${away.name}.`,
      ],
      seed,
      1,
    );
  }
  if (gap > 0) {
    return choose(
      [
        `${home.name} a un léger avantage sur ${away.name}, aidé par le terrain.`,
        `Avantage modéré pour ${home.name}, qui reçoit ${away.name}.`,
      ],
      seed,
      1,
    );
  }
  return choose(
    [
      `${away.name} part avec un léger avantage sur ${home.name}, malgré le déplacement.`,
      `Le modèle penche légèrement pour ${away.name}, en visite chez ${home.name}.`,
    ],
    seed,
    1,
  );
}

/** `2020-03-08` → `8 mars 2020`. */
function frenchDate(day: string): string {
  const months = [
    'janvier',
    'février',
    'mars',
    'avril',
    'mai',
    'juin',
    'juillet',
    'août',
    'septembre',
    'octobre',
    'novembre',
    'décembre',
  ];
  const [year, month, date] = day.split('-').map(Number);
  return `${date} ${months[(month ?? 1) - 1]} ${year}`;
}

function caveat(facts: AnalysisFacts): string | null {
  const stale = facts.league.stale;
  if (stale) {
    const league = facts.league.name ?? 'ce championnat';
    return stale.latestResult
      ? `Attention : nos derniers résultats de ${league} datent du ${frenchDate(stale.latestResult)}. Les équipes ont pu beaucoup changer depuis ; cette estimation repose sur des données anciennes et reste à prendre avec une grande prudence.`
      : `Attention : nous n’avons aucun résultat récent de ${league}. Cette estimation repose sur des repères généraux et reste à prendre avec une grande prudence.`;
  }
  if (!facts.league.known) {
    return 'Ce championnat n’est pas couvert par nos données : l’estimation repose sur des repères généraux (avantage du terrain compris) et reste à prendre avec prudence.';
  }
  const unknown = [facts.home, facts.away].filter((team) => !team.known).map((team) => team.name);
  if (unknown.length === 2) {
    return 'Aucune des deux équipes ne figure dans nos données : le modèle leur prête le niveau type d’un promu, d’où une fiabilité limitée.';
  }
  if (unknown.length === 1) {
    return `${unknown[0]} ne figure pas dans nos données : le modèle lui prête le niveau type d’un promu, d’où une fiabilité limitée.`;
  }
  if (facts.dataQuality.level === 'low') {
    return 'Peu de matchs récents sont disponibles pour ces équipes : l’estimation reste prudente.';
  }
  return null;
}

function marketSentence(facts: AnalysisFacts, seed: number): string {
  const sure = certainty(facts.confidence);
  const chance = percent(facts.confidence);
  switch (facts.market) {
    case 'btts':
      return facts.pick === 'yes'
        ? `Les deux attaques devraient trouver le chemin des filets : probabilité estimée à ${chance} que chaque équipe marque, ${sure}.`
        : `Au moins une des deux équipes pourrait rester muette : ${chance} selon le modèle, ${sure}.`;
    case 'over_under_2_5':
      return facts.pick === 'over'
        ? `Le total attendu (${decimal(facts.expectedGoals.home + facts.expectedGoals.away)} buts) plaide pour un match à trois buts ou plus : ${chance}, ${sure}.`
        : `Avec ${decimal(facts.expectedGoals.home + facts.expectedGoals.away)} buts attendus au total, un match à deux buts ou moins est le scénario le plus probable : ${chance}, ${sure}.`;
    case 'exact_score': {
      const others = facts.scores
        .slice(1, 3)
        .map((entry) => `${entry.score} (${percent(entry.probability)})`)
        .join(' et ');
      return `Le score le plus probable est ${facts.pick} (${chance}), suivi de ${others}. Un score exact reste très incertain : même le plus probable se produit rarement.`;
    }
    case 'double_chance':
      return `Double chance « ${facts.pickLabel} » : probabilité estimée à ${chance}, ${sure}.`;
    default:
      return choose(
        [
          `Notre lecture : ${facts.pickLabel.toLowerCase() === 'match nul' ? 'un match nul' : facts.pickLabel} (${chance}), ${sure}.`,
          `Issue la plus probable : ${facts.pickLabel} (${chance}), ${sure}.`,
        ],
        seed,
        3,
      );
  }
}

function fullAnalysisExtras(facts: AnalysisFacts): string {
  const btts = facts.bttsYes >= 0.5 ? 'les deux équipes marquent' : 'au moins une équipe reste muette';
  const goals = facts.over25 >= 0.5 ? 'plus de 2,5 buts' : 'moins de 2,5 buts';
  const top = facts.scores[0];
  return `Répartition 1X2 : ${percent(facts.oneXTwo.home)} / ${percent(facts.oneXTwo.draw)} / ${percent(facts.oneXTwo.away)}. Côté buts, le modèle penche pour ${goals} (${percent(Math.max(facts.over25, 1 - facts.over25))}) et ${btts} (${percent(Math.max(facts.bttsYes, 1 - facts.bttsYes))})${top ? ` ; score le plus probable : ${top.score}` : ''}.`;
}

const CLOSINGS = [
  'Le football garde sa part d’imprévu : ces chiffres sont des probabilités, pas des promesses.',
  'À lire comme une estimation : un match peut toujours déjouer les probabilités.',
  'Ces probabilités éclairent le match sans en écrire l’issue.',
];

export function writeAnalysis(facts: AnalysisFacts): string {
  const seed = hash(`${facts.home.name}|${facts.away.name}|${facts.market}`);
  const sentences: string[] = [opening(facts, seed)];

  const strengths = [strengthText(facts.home), strengthText(facts.away)].filter((text) => text !== null);
  if (strengths.length > 0) sentences.push(`${strengths.join(' ; ')}.`);
  const stakes = stakesText(facts);
  if (stakes) sentences.push(stakes);

  sentences.push(
    choose(
      [
        `Buts attendus : ${decimal(facts.expectedGoals.home)} pour ${facts.home.name}, ${decimal(facts.expectedGoals.away)} pour ${facts.away.name}.`,
        `Le modèle attend environ ${decimal(facts.expectedGoals.home)} but${facts.expectedGoals.home >= 1.95 ? 's' : ''} pour ${facts.home.name} et ${decimal(facts.expectedGoals.away)} pour ${facts.away.name}.`,
      ],
      seed,
      2,
    ),
  );

  const forms = [
    formText(facts.home.name, facts.home.form),
    formText(facts.away.name, facts.away.form),
  ].filter((text) => text !== null);
  if (forms.length > 0) sentences.push(`Sur les cinq derniers matchs : ${forms.join(' ; ')}.`);

  sentences.push(marketSentence(facts, seed));
  if (facts.market === 'full_analysis') sentences.push(fullAnalysisExtras(facts));

  const warning = caveat(facts);
  if (warning) sentences.push(warning);
  sentences.push(choose(CLOSINGS, seed, 4));
  return sentences.join(' ');
}
