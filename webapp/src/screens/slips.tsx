// Slips (issue 53): the bettor's ticket checked against our probabilities. Legs come from the
// user's own successful analyses (one opened from an analysis's "check the odds on my slip"); each
// odds typed updates the verdict (the service's check, free, a moment after typing stops); a slip
// is saved and its status follows in the list of saved slips. Loaded only when first opened.
import { useEffect, useState } from 'preact/hooks';
import { api, dataOf, errorText, type ResponseData, xaf } from '../api.js';
import { t } from '../i18n/index.js';

type Listed = ResponseData<'/api/user/pronostics', 'get'>['pronostics'][number];
type Checked = ResponseData<'/api/user/slips/check', 'post'>['slip'];
type Saved = ResponseData<'/api/user/slips', 'get'>['slips'][number];
type Market = Checked['legs'][number]['market'];

interface Leg {
  pronostic_id: number;
  market: Market;
  pick: string;
  odds: string;
}

const PICKS: Record<Exclude<Market, 'exact_score'>, string[]> = {
  '1x2': ['home', 'draw', 'away'],
  double_chance: ['home_draw', 'home_away', 'draw_away'],
  btts: ['yes', 'no'],
  over_under_2_5: ['over', 'under'],
};
const MARKETS = Object.keys(PICKS).concat('exact_score') as Market[];

type Result = { market?: string; pick?: string; scores?: Array<{ score: string }> };
const resultOf = (row: Listed | undefined): Result => (row?.result ?? {}) as Result;

function marketsOf(row: Listed | undefined): Market[] {
  const market = resultOf(row).market;
  if (market === 'full_analysis') return MARKETS;
  return MARKETS.filter((candidate) => candidate === market);
}

function picksOf(row: Listed | undefined, market: Market): string[] {
  if (market === 'exact_score') return (resultOf(row).scores ?? []).map((entry) => entry.score);
  return PICKS[market];
}

/** A leg on an analysis: its own market and pick to start with. */
function legOn(row: Listed): Leg {
  const market = marketsOf(row)[0] ?? '1x2';
  const own = resultOf(row).pick;
  const picks = picksOf(row, market);
  return {
    pronostic_id: row.id,
    market,
    pick: own && picks.includes(own) ? own : (picks[0] ?? ''),
    odds: '',
  };
}

const teamsOf = (row: Listed) => `${row.teams_details.home} – ${row.teams_details.away}`;
const oddsOf = (text: string) => Number(text.replace(',', '.'));
const pct = (value: number) => `${(value * 100).toFixed(1)} %`;

export function Slips({ from }: { from?: number }) {
  const [analyses, setAnalyses] = useState<Listed[]>([]);
  const [legs, setLegs] = useState<Leg[]>([]);
  const [stake, setStake] = useState('1000');
  const [checked, setChecked] = useState<Checked | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [notice, setNotice] = useState<string | undefined>();
  const [saved, setSaved] = useState<Saved[]>([]);
  const [adding, setAdding] = useState('');

  const loadSaved = () =>
    dataOf(api.GET('/api/user/slips', { params: { query: { per_page: 20 } } })).then(
      (data) => setSaved(data.slips),
      () => undefined,
    );

  useEffect(() => {
    void dataOf(
      api.GET('/api/user/pronostics', { params: { query: { status: 'success', per_page: 50 } } }),
    ).then(
      (data) => {
        setAnalyses(data.pronostics);
        const first = data.pronostics.find((row) => row.id === from);
        if (first) setLegs([legOn(first)]);
      },
      (failure: unknown) => setError(errorText(failure)),
    );
    void loadSaved();
  }, [from]);

  const body = () => ({
    legs: legs.map((leg) => ({
      pronostic_id: leg.pronostic_id,
      market: leg.market,
      pick: leg.pick,
      odds: oddsOf(leg.odds),
    })),
    stake: Number(stake),
  });
  const ready = legs.length > 0 && legs.every((leg) => oddsOf(leg.odds) >= 1.01) && Number(stake) >= 100;

  // The verdict follows the typing: one check a moment after the last key.
  useEffect(() => {
    if (!ready) {
      setChecked(undefined);
      return;
    }
    const timer = setTimeout(() => {
      dataOf(api.POST('/api/user/slips/check', { body: body() })).then(
        (data) => {
          setChecked(data.slip);
          setError(undefined);
        },
        (failure: unknown) => {
          setChecked(undefined);
          setError(errorText(failure));
        },
      );
    }, 300);
    return () => clearTimeout(timer);
  }, [JSON.stringify(legs), stake]);

  const change = (index: number, part: Partial<Leg>) =>
    setLegs((before) => before.map((leg, i) => (i === index ? { ...leg, ...part } : leg)));

  const save = async () => {
    try {
      await dataOf(api.POST('/api/user/slips', { body: body() }));
      setNotice(t('slipSaved'));
      setLegs([]);
      void loadSaved();
    } catch (failure) {
      setError(errorText(failure));
    }
  };

  return (
    <section class="slips">
      <h1>{t('slipsTitle')}</h1>
      <p>{t('slipsIntro')}</p>
      {legs.map((leg, index) => {
        const row = analyses.find((candidate) => candidate.id === leg.pronostic_id);
        const id = `leg-${index}`;
        return (
          <fieldset key={id} class="card">
            <legend>{row ? teamsOf(row) : `#${leg.pronostic_id}`}</legend>
            <label>
              {t('slipMarket')}
              <select
                value={leg.market}
                onChange={(event) => {
                  const market = event.currentTarget.value as Market;
                  change(index, { market, pick: picksOf(row, market)[0] ?? '' });
                }}
              >
                {marketsOf(row).map((market) => (
                  <option key={market} value={market}>
                    {t(`market_${market}`)}
                  </option>
                ))}
              </select>
            </label>
            <label>
              {t('slipPick')}
              <select
                value={leg.pick}
                onChange={(event) => change(index, { pick: event.currentTarget.value })}
              >
                {picksOf(row, leg.market).map((pick) => (
                  <option key={pick} value={pick}>
                    {PICK_KEYS[pick] ? t(PICK_KEYS[pick]) : pick}
                  </option>
                ))}
              </select>
            </label>
            <label>
              {t('slipOdds')}
              <input
                inputMode="decimal"
                value={leg.odds}
                onInput={(event) => change(index, { odds: event.currentTarget.value })}
              />
            </label>
            {checked?.legs[index] && (
              <p class="muted">
                {t('slipLegFigures', {
                  ours: pct(checked.legs[index].probability),
                  implied: pct(checked.legs[index].implied_probability),
                })}
              </p>
            )}
            <button type="button" onClick={() => setLegs((before) => before.filter((_, i) => i !== index))}>
              {t('slipRemove')}
            </button>
          </fieldset>
        );
      })}
      <label>
        {t('slipAdd')}
        <select
          value={adding}
          onChange={(event) => {
            const row = analyses.find((candidate) => candidate.id === Number(event.currentTarget.value));
            if (row) setLegs((before) => [...before, legOn(row)]);
            setAdding('');
          }}
        >
          <option value="">{t('slipChoose')}</option>
          {analyses.map((row) => (
            <option key={row.id} value={String(row.id)}>
              {teamsOf(row)}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t('slipStake')}
        <input inputMode="numeric" value={stake} onInput={(event) => setStake(event.currentTarget.value)} />
      </label>
      <div aria-live="polite" data-slip-verdict={checked?.verdict ?? ''}>
        {checked && (
          <div class="card">
            <p>
              {t('slipFigures', {
                probability: pct(checked.probability),
                odds: checked.odds,
                fair: checked.fair_odds ?? '–',
              })}
            </p>
            <p>
              <strong>{checked.verdict_text}</strong>
            </p>
          </div>
        )}
        {error && <p role="alert">{error}</p>}
        {notice && <p>{notice}</p>}
      </div>
      <button type="button" disabled={!checked} onClick={() => void save()}>
        {t('slipSave')}
      </button>
      <h2>{t('slipsSaved')}</h2>
      {saved.length === 0 ? (
        <p>{t('slipsNone')}</p>
      ) : (
        <ul class="list">
          {saved.map((slip) => (
            <li key={slip.id} data-slip={slip.id}>
              {t('slipSavedLine', { legs: slip.legs.length, odds: slip.odds, stake: xaf(slip.stake) })} —{' '}
              <span data-status={slip.status}>{t(`slipStatus_${slip.status}`)}</span>
              {slip.returned !== null && ` (${xaf(slip.returned)})`}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

const PICK_KEYS: Record<string, Parameters<typeof t>[0]> = {
  home: 'probHome',
  draw: 'probDraw',
  away: 'probAway',
  yes: 'probYes',
  no: 'probNo',
  over: 'probOver',
  under: 'probUnder',
  home_draw: 'pickHomeDraw',
  home_away: 'pickHomeAway',
  draw_away: 'pickDrawAway',
};
