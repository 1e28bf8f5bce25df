// A user's responsible play, read-only (issue 54): age status and date of birth, the spending limits
// with their pending changes, and a self-exclusion under way. Nobody changes them here: the date of
// birth through its audited admin route, the rest only by the user (a pause can never be shortened).
import type { ResponseData } from '../api.js';
import { t } from '../i18n.js';
import { when, xaf } from '../ui.js';

type Play = ResponseData<'/api/admin/users/{id}', 'get'>['play'];
const p = t.play;
const PERIODS = ['daily', 'weekly', 'monthly'] as const;

export function UserPlay({ play, now = Date.now() }: { play: Play; now?: number }) {
  const excluded = play.self_excluded_until !== null && Date.parse(play.self_excluded_until) > now;
  return (
    <section class="card" aria-labelledby="play-title">
      <h2 id="play-title">{p.title}</h2>
      <dl class="facts">
        <dt>{p.age}</dt>
        <dd data-field="age-status">
          {p.ageStatus[play.age_status]}
          {play.birth_date ? ` · ${play.birth_date}` : ''}
        </dd>
        {PERIODS.map((period) => {
          const pending = play.pending[period];
          const limit = play.limits[period];
          return (
            <>
              <dt>{p.periods[period]}</dt>
              <dd data-field={`limit-${period}`}>
                {limit === null ? p.none : xaf(limit)}
                {pending
                  ? ` · ${p.pending(pending.amount === null ? p.none : xaf(pending.amount), when(pending.effective_at))}`
                  : ''}
              </dd>
            </>
          );
        })}
        <dt>{p.exclusion}</dt>
        <dd data-field="self-exclusion">
          {excluded && play.self_excluded_until ? p.excludedUntil(when(play.self_excluded_until)) : p.none}
        </dd>
      </dl>
    </section>
  );
}
