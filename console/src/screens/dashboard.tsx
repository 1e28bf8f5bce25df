// The dashboard: today and the last 30 days (UTC days), the daily series as charts (uPlot, one
// series per chart with its axes named and its legend, so no line hides another), the withdrawals
// waiting, escalated payouts and open flags (kept current by the live stream), and the engine's
// recent accuracy when the track record has settled any.
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import { api, dataOf, type ResponseData } from '../api.js';
import { intlLocale, t } from '../i18n.js';
import { useLive } from '../live.js';
import { LoadState, number, percent, ScrollRegion, useLoad, xaf } from '../ui.js';

type Stats = ResponseData<'/api/admin/stats', 'get'>;
type Period = Omit<Stats['today'], 'day'>;

export function Dashboard() {
  const loaded = useLoad(() => dataOf(api.GET('/api/admin/stats')), []);
  // The counters an admin waits on move as requests, tickets and flags come in.
  useLive(['withdrawal.requested', 'ticket.created', 'flag.raised'], loaded.reload);
  const stats = loaded.data;
  const d = t.dashboard;
  return (
    <section aria-labelledby="dashboard-title">
      <h1 id="dashboard-title">{d.title}</h1>
      <LoadState loaded={loaded}>
        {stats ? (
          <>
            <h2>{d.today(stats.today.day)}</h2>
            <PeriodFigures period={stats.today} name="today" />
            <h2>{d.last30(stats.last_30_days.from, stats.last_30_days.to)}</h2>
            <PeriodFigures period={stats.last_30_days} name="30d" />
            <ul class="kpis">
              <li>
                <span class="value" data-cell="withdrawals-pending">
                  {number(stats.withdrawals_pending.count)}
                </span>
                {d.withdrawalsPending(xaf(stats.withdrawals_pending.amount))}
              </li>
              <li>
                <span class="value" data-cell="withdrawals-escalated">
                  {number(stats.withdrawals_escalated)}
                </span>
                {d.withdrawalsEscalated}
              </li>
              <li>
                <span class="value" data-cell="flags-open">
                  {number(stats.flags_open)}
                </span>
                {d.flagsOpen}
              </li>
              <li>
                <span class="value" data-cell="engine-accuracy">
                  {stats.engine_accuracy?.hit_rate != null ? percent(stats.engine_accuracy.hit_rate) : '—'}
                </span>
                {stats.engine_accuracy
                  ? d.engineAccuracy(
                      String(stats.engine_accuracy.won),
                      String(stats.engine_accuracy.lost),
                      String(stats.engine_accuracy.settled),
                    )
                  : d.engineNone}
              </li>
            </ul>
            <div class="charts">
              <Chart
                title={d.signupsPerDay}
                series={stats.series}
                line={{ key: 'signups', label: d.signups, color: '#0b5cad' }}
              />
              <Chart
                title={d.pronosticsPerDay}
                series={stats.series}
                line={{ key: 'pronostics', label: d.pronostics, color: '#a4161a' }}
              />
              <Chart
                title={d.revenuePerDay}
                series={stats.series}
                line={{ key: 'revenue', label: d.revenueXaf, color: '#12622f' }}
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
  const d = t.dashboard;
  const figures: [string, string, string][] = [
    ['signups', d.signupsFigure, number(period.signups)],
    [
      'pronostics',
      d.pronosticsFigure(
        String(period.pronostics.success),
        String(period.pronostics.processing),
        String(period.pronostics.cancelled),
      ),
      number(period.pronostics.total),
    ],
    [
      'payments',
      d.paymentsFigure(
        String(period.payments.success),
        String(period.payments.pending),
        String(period.payments.failed),
      ),
      number(period.payments.total),
    ],
    ['revenue', d.revenueFigure, xaf(period.payments.revenue)],
    // Counts only: the console never shows a user's slip.
    ['slips', d.slipsFigure(number(period.slips.saved)), number(period.slips.checked)],
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

const dayFormat = new Intl.DateTimeFormat(intlLocale, { day: 'numeric', month: 'short', timeZone: 'UTC' });
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
          { label: t.dashboard.dayUtc, value: (_u, v) => (v == null ? '—' : dayOf(v)) },
          {
            label: line.label,
            stroke: line.color,
            fill: `${line.color}22`,
            width: 2,
            points: { show: true, size: 5, fill: line.color },
          },
        ],
        axes: [
          { label: t.dashboard.dayUtc, values: (_u, splits) => splits.map(dayOf), space: 60 },
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
      <div ref={box} role="img" aria-label={t.dashboard.chartLabel(title)} />
    </figure>
  );
}

function SeriesTable({ series }: { series: Point[] }) {
  return (
    <details>
      <summary>{t.dashboard.perDay}</summary>
      <ScrollRegion label={t.dashboard.figuresPerDay}>
        <table>
          <caption class="visually-hidden">{t.dashboard.figuresPerDay}</caption>
          <thead>
            <tr>
              <th scope="col">{t.dashboard.dayUtc}</th>
              <th scope="col">{t.dashboard.signups}</th>
              <th scope="col">{t.dashboard.pronostics}</th>
              <th scope="col">{t.dashboard.revenue}</th>
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
