// Small shared pieces of the console: the status announcer (an aria-live region), data loading,
// pagination, formatting.
import type { ComponentChildren } from 'preact';
import { createContext } from 'preact';
import { useCallback, useContext, useEffect, useState } from 'preact/hooks';
import { LANGUAGES } from '../../clients/web/i18n.js';
import { ApiError, errorText, type PageMeta } from './api.js';
import { intlLocale, locale, t } from './i18n.js';

export interface Notifier {
  /** Says a result in the status region (read by screen readers). */
  say(message: string, tone?: 'ok' | 'error'): void;
  /** The session ended (401): back to sign-in. */
  signedOut(): void;
}

export const NotifierContext = createContext<Notifier>({ say: () => {}, signedOut: () => {} });
export const useNotifier = () => useContext(NotifierContext);

export interface Loaded<T> {
  data: T | undefined;
  error: string | undefined;
  loading: boolean;
  reload: () => void;
}

/** Runs `load` when `deps` change; a 401 ends the session. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const notifier = useNotifier();
  const [state, setState] = useState<{ data?: T; error?: string; loading: boolean }>({ loading: true });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setState((previous) => ({ ...previous, loading: true }));
    load().then(
      (data) => live && setState({ data, loading: false }),
      (error: unknown) => {
        if (!live) return;
        if (error instanceof ApiError && error.status === 401) notifier.signedOut();
        setState({ error: errorText(error), loading: false });
      },
    );
    return () => {
      live = false;
    };
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((n) => n + 1), []);
  return { data: state.data, error: state.error, loading: state.loading, reload };
}

/**
 * A list under filters, a page at a time (the console's lists): the filters as last applied, the
 * page shown and its load, rerun when either changes; applying filters goes back to the first page.
 */
export function usePagedList<F, T>(initial: F, load: (filters: F, page: number) => Promise<T>) {
  const [filters, setFilters] = useState(initial);
  const [page, setPage] = useState(1);
  const loaded = useLoad(() => load(filters, page), [page, filters]);
  const apply = useCallback((next: F) => {
    setPage(1);
    setFilters(next);
  }, []);
  return { filters, apply, setPage, loaded };
}

/** Runs an action, says its result, returns whether it worked. */
export function useAction() {
  const notifier = useNotifier();
  const [busy, setBusy] = useState(false);
  /** `success` may read the answer (a 202 asking for a second admin says so instead). */
  const run = async <T,>(
    action: () => Promise<T>,
    success: string | ((answer: T) => string),
  ): Promise<boolean> => {
    setBusy(true);
    try {
      const answer = await action();
      notifier.say(typeof success === 'string' ? success : success(answer), 'ok');
      return true;
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) notifier.signedOut();
      notifier.say(errorText(error), 'error');
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, run };
}

export function Pager({
  meta,
  onPage,
  label,
}: {
  meta: PageMeta;
  onPage: (page: number) => void;
  label: string;
}) {
  return (
    <nav class="pager" aria-label={t.common.pagination(label)}>
      <button type="button" disabled={meta.current_page <= 1} onClick={() => onPage(meta.current_page - 1)}>
        {t.common.previous}
      </button>
      <span>
        {t.common.page(String(meta.current_page), String(Math.max(meta.last_page, 1)), String(meta.total))}
      </span>
      <button type="button" disabled={!meta.has_more} onClick={() => onPage(meta.current_page + 1)}>
        {t.common.next}
      </button>
    </nav>
  );
}

export function LoadState({ loaded, children }: { loaded: Loaded<unknown>; children: ComponentChildren }) {
  if (loaded.error) {
    return (
      <p class="error" role="alert">
        {loaded.error}
      </p>
    );
  }
  if (loaded.data === undefined) return <p aria-busy="true">{t.common.loading}</p>;
  return <>{children}</>;
}

const xafFormat = new Intl.NumberFormat(intlLocale, { maximumFractionDigits: 0 });
export const xaf = (amount: number) => `${xafFormat.format(amount)} XAF`;
export const number = (value: number) => xafFormat.format(value);
export const percent = (value: number) =>
  `${new Intl.NumberFormat(intlLocale, { maximumFractionDigits: 1 }).format(value * 100)}${t.common.percentSuffix}`;

const dateFormat = new Intl.DateTimeFormat(intlLocale, {
  dateStyle: 'short',
  timeStyle: 'short',
  timeZone: 'UTC',
});
export const when = (iso: string | null | undefined) =>
  iso ? `${dateFormat.format(new Date(iso))} UTC` : '—';

export function Field({
  label,
  children,
  hint,
}: {
  label: string;
  children: ComponentChildren;
  hint?: string;
}) {
  return (
    // biome-ignore lint/a11y/noLabelWithoutControl: the control is the children, inside the label.
    <label class="field">
      <span>{label}</span>
      {children}
      {hint ? <small>{hint}</small> : null}
    </label>
  );
}

/**
 * A wide table's horizontal scroller (on a phone): a named region in the tab order, so a keyboard
 * user can scroll it too (WCAG 2.1.1; axe's scrollable-region-focusable).
 */
export function ScrollRegion({
  label,
  hidden,
  children,
}: {
  label: string;
  hidden?: boolean;
  children: ComponentChildren;
}) {
  return (
    // A section with a name is a region landmark.
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take the focus to be scrolled by keyboard.
    <section class="scroll" aria-label={label} tabIndex={0} hidden={hidden}>
      {children}
    </section>
  );
}

/**
 * The FR / EN switch: links to the same screen with `?lang=xx`; the service answers with the console
 * in that language and the `lang` cookie that keeps it (src/lib/page-locale.ts).
 */
export function LanguageSwitch() {
  return (
    <nav class="lang" aria-label={t.languageSwitch}>
      {LANGUAGES.map((each) => (
        <a
          key={each}
          href={`?lang=${each}`}
          hreflang={each}
          lang={each}
          aria-current={each === locale ? 'true' : undefined}
        >
          {each.toUpperCase()}
        </a>
      ))}
    </nav>
  );
}
