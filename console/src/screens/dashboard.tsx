// The dashboard: today and the last 30 days (UTC days), the daily series as charts (uPlot, one
// series per chart with its axes named and its legend, so no line hides another), the withdrawals
// waiting, escalated payouts and open flags (kept current by the live stream), and the engine's
// recent accuracy when the track record has settled any.
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import { api, dataOf, type ResponseData } from '../api.js';
import { useLive } from '../live.js';
import { LoadState, number, percent, ScrollRegion, useLoad, xaf } from '../ui.js';

type Stats = ResponseData<'/api/admin/stats', 'get'>;
type Period = Omit<Stats['today'], 'day'>;

export function Dashboard() {
  const loaded = useLoad(() => dataOf(api.GET('/api/admin/stats')), []);
  // The counters an admin waits on move as requests, tickets and flags come in.
  useLive(['withdrawal.requested', 'ticket.created', 'flag.raised'], loaded.reload);
  const stats = loaded.data;
  return (
    <section aria-labelledby="dashboard-title">
      <h1 id="dashboard-title">Tableau de bord</h1>
      <LoadState loaded={loaded}>
        {stats ? (
          <>
            <h2>Aujourd’hui ({stats.today.day}, UTC)</h2>
            <PeriodFigures period={stats.today} name="today" />
            <h2>
              30 derniers jours (du {stats.last_30_days.from} au {stats.last_30_days.to})
            </h2>
            <PeriodFigures period={stats.last_30_days} name="30d" />
            <ul class="kpis">
              <li>
                <span class="value" data-cell="withdrawals-pending">
                  {number(stats.withdrawals_pending.count)}
                </span>
                retraits en attente ({xaf(stats.withdrawals_pending.amount)})
              </li>
              <li>
                <span class="value" data-cell="withdrawals-escalated">
                  {number(stats.withdrawals_escalated)}
                </span>
                paiements de retrait escaladés, à régler à la main
              </li>
              <li>
                <span class="value" data-cell="flags-open">
                  {number(stats.flags_open)}
                </span>
                signalements ouverts
              </li>
              <li>
                <span class="value" data-cell="engine-accuracy">
                  {stats.engine_accuracy?.hit_rate != null ? percent(stats.engine_accuracy.hit_rate) : '—'}
                </span>
                {stats.engine_accuracy
                  ? `réussite du moteur sur 30 jours (${stats.engine_accuracy.won} gagnés, ${stats.engine_accuracy.lost} perdus, ${stats.engine_accuracy.settled} réglés)`
                  : 'réussite du moteur : aucun pronostic réglé sur 30 jours ; elle s’affiche dès que des matchs analysés sont joués et réglés contre leurs résultats'}
              </li>
            </ul>
            <div class="charts">
              <Chart
                title="Inscriptions par jour"
                series={stats.series}
                line={{ key: 'signups', label: 'Inscriptions', color: '#0b5cad' }}
              />
              <Chart
                title="Pronostics par jour"
                series={stats.series}
                line={{ key: 'pronostics', label: 'Pronostics', color: '#a4161a' }}
              />
              <Chart
                title="Recettes par jour (XAF)"
                series={stats.series}
                line={{ key: 'revenue', label: 'Recettes (XAF)', color: '#12622f' }}
              />
            </div>
            <SeriesTable series={stats.series} />
          </>
        ) : null}
      </LoadState>
    </section>
  );
}

function PeriodFigures({ period, name }: { period: Period; name: string }) {
  const figures: [string, string, string][] = [
    ['signups', 'inscriptions', number(period.signups)],
    [
      'pronostics',
      `pronostics (${period.pronostics.success} réussis, ${period.pronostics.processing} en cours, ${period.pronostics.cancelled} annulés)`,
      number(period.pronostics.total),
    ],
    [
      'payments',
      `paiements (${period.payments.success} réussis, ${period.payments.pending} en attente, ${period.payments.failed} échoués)`,
      number(period.payments.total),
    ],
    ['revenue', 'recettes', xaf(period.payments.revenue)],
  ];
  return (
    <ul class="kpis">
      {figures.map(([key, label, value]) => (
        <li key={key}>
          <span class="value" data-cell={`${name}:${key}`}>
            {value}
          </span>
          {label}
        </li>
      ))}
    </ul>
  );
}

type Point = Stats['series'][number];

const dayFormat = new Intl.DateTimeFormat('fr-FR', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const dayOf = (seconds: number) => dayFormat.format(new Date(seconds * 1000));
type SeriesKey = 'signups' | 'pronostics' | 'revenue';

/** Whole steps only: a count of people or pronostics has no half. */
const COUNT_STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000];
const HEIGHT = 220;

function Chart({
  title,
  series,
  line,
}: {
  title: string;
  series: Point[];
  line: { key: SeriesKey; label: string; color: string };
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const x = series.map((point) => Date.parse(`${point.day}T00:00:00Z`) / 1000);
    const data: uPlot.AlignedData = [x, series.map((point) => point[line.key])];
    // The chart takes its box's width (a phone's screen too), never more.
    const width = () => Math.max(200, Math.min(element.clientWidth, 900));
    const money = line.key === 'revenue';
    const chart = new uPlot(
      {
        width: width(),
        height: HEIGHT,
        // The legend names the series with its colour, always shown (not only on hover).
        legend: { show: true, live: false },
        scales: { y: { range: (_u, _min, max) => [0, Math.max(max, money ? 1000 : 4)] } },
        series: [
          { label: 'Jour (UTC)', value: (_u, v) => (v == null ? '—' : dayOf(v)) },
          {
            label: line.label,
            stroke: line.color,
            fill: `${line.color}22`,
            width: 2,
            points: { show: true, size: 5, fill: line.color },
          },
        ],
        axes: [
          { label: 'Jour (UTC)', values: (_u, splits) => splits.map(dayOf), space: 60 },
          {
            label: line.label,
            size: money ? 70 : 50,
            ...(money ? {} : { incrs: COUNT_STEPS }),
            values: (_u, splits) => splits.map((v) => number(v)),
          },
        ],
      },
      data,
      element,
    );
    const resize = () => chart.setSize({ width: width(), height: HEIGHT });
    const observer = new ResizeObserver(resize);
    observer.observe(element);
    return () => {
      observer.disconnect();
      chart.destroy();
    };
  }, [series, line.key]);
  return (
    <figure class="chart">
      <figcaption>{title}</figcaption>
      <div
        ref={box}
        role="img"
        aria-label={`${title} : graphique des 30 derniers jours, détail dans le tableau`}
      />
    </figure>
  );
}

function SeriesTable({ series }: { series: Point[] }) {
  return (
    <details>
      <summary>Détail par jour</summary>
      <ScrollRegion label="Chiffres par jour">
        <table>
          <caption class="sr-only">Chiffres par jour</caption>
          <thead>
            <tr>
              <th scope="col">Jour (UTC)</th>
              <th scope="col">Inscriptions</th>
              <th scope="col">Pronostics</th>
              <th scope="col">Recettes</th>
            </tr>
          </thead>
          <tbody>
            {series.map((point) => (
              <tr key={point.day}>
                <td>{point.day}</td>
                <td>{point.signups}</td>
                <td>{point.pronostics}</td>
                <td>{xaf(point.revenue)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
    </details>
  );
}
