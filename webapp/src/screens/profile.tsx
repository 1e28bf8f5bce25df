// The profile: name, username, language (the account's, for what is sent without a screen open),
// the avatar; the export of one's data; the account's deletion with its code.
import { useEffect, useState } from 'preact/hooks';
import { ApiError, api, dataOf, envelopeOf, errorText, headers, session, upload } from '../api.js';
import { currentLanguage, type Language, t } from '../i18n/index.js';

export function Profile({
  onLanguage,
  onDeleted,
}: {
  onLanguage: (language: Language) => void;
  onDeleted: () => void;
}) {
  const [name, setName] = useState('');
  const [username, setUsername] = useState('');
  const [avatar, setAvatar] = useState('');
  // The form shows once the profile is read: a late answer never overwrites what was typed.
  const [loaded, setLoaded] = useState(false);
  const [notice, setNotice] = useState<string | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [deleteStep, setDeleteStep] = useState<'idle' | 'code'>('idle');
  const [code, setCode] = useState('');
  const [forfeit, setForfeit] = useState(false);

  useEffect(() => {
    void envelopeOf(api.GET('/api/user/profile')).then(
      ({ user }) => {
        setName(user.name ?? '');
        setUsername(user.username ?? '');
        setAvatar(user.avatar);
        setLoaded(true);
      },
      (failure: unknown) => setError(errorText(failure)),
    );
  }, []);

  const act = async (work: () => Promise<string | undefined>) => {
    setBusy(true);
    setError(undefined);
    setNotice(undefined);
    try {
      setNotice(await work());
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  };
  const save = (event: Event) => {
    event.preventDefault();
    void act(async () => {
      const body: { name?: string; username?: string } = {};
      if (name.trim()) body.name = name.trim();
      if (username.trim()) body.username = username.trim();
      await dataOf(api.POST('/api/user/profile/update', { body }));
      return t('saved');
    });
  };
  const changeLanguage = (next: Language) =>
    void act(async () => {
      onLanguage(next);
      await dataOf(api.POST('/api/user/profile/update', { body: { locale: next } }));
      return t('saved');
    });
  const changeAvatar = (file: File | undefined) => {
    if (!file) return;
    void act(async () => {
      const form = new FormData();
      form.set('avatar', file);
      const data = await upload<{ avatar: string }>('/api/user/profile/avatar', form);
      setAvatar(data.avatar);
      return t('saved');
    });
  };
  const exportData = () =>
    void act(async () => {
      const response = await fetch('/api/user/account/export', { headers: headers() });
      if (!response.ok) throw new ApiError(response.status, await response.json().catch(() => undefined));
      const link = document.createElement('a');
      link.href = URL.createObjectURL(await response.blob());
      link.download = 'pronostics-export.json';
      link.click();
      URL.revokeObjectURL(link.href);
      return undefined;
    });
  const sendDeleteCode = () =>
    void act(async () => {
      await dataOf(api.POST('/api/user/account/delete/code', { body: {} }));
      setDeleteStep('code');
      return undefined;
    });
  const confirmDelete = (event: Event) => {
    event.preventDefault();
    void act(async () => {
      await envelopeOf(
        api.POST('/api/user/account/delete', {
          body: { code: code.trim(), ...(forfeit ? { forfeit_balance: true } : {}) },
        }),
      );
      session.clear();
      onDeleted();
      return undefined;
    });
  };

  if (!loaded) {
    return error ? (
      <p role="alert" class="error">
        {error}
      </p>
    ) : (
      <p class="loading">{t('loading')}</p>
    );
  }
  return (
    <section aria-labelledby="profile-title">
      <h1 id="profile-title">{t('profileTitle')}</h1>
      {avatar && <img class="avatar" src={avatar} alt="" width={96} height={96} />}
      {notice && <p role="status">{notice}</p>}
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      <form onSubmit={save}>
        <label>
          {t('name')}
          <input
            value={name}
            maxLength={60}
            autoComplete="name"
            onInput={(e) => setName(e.currentTarget.value)}
          />
        </label>
        <label>
          {t('username')}
          <input
            value={username}
            maxLength={30}
            autoCapitalize="none"
            onInput={(e) => setUsername(e.currentTarget.value)}
          />
        </label>
        <button type="submit" disabled={busy}>
          {t('save')}
        </button>
      </form>
      <label>
        {t('language')}
        <select value={currentLanguage()} onChange={(e) => changeLanguage(e.currentTarget.value as Language)}>
          <option value="fr" lang="fr">
            Français
          </option>
          <option value="en" lang="en">
            English
          </option>
        </select>
      </label>
      <label>
        {t('avatar')}
        <input
          type="file"
          accept="image/jpeg,image/png,image/webp"
          onChange={(e) => changeAvatar(e.currentTarget.files?.[0])}
        />
      </label>
      <h2>{t('dataTitle')}</h2>
      <button type="button" class="secondary" disabled={busy} onClick={exportData}>
        {t('exportData')}
      </button>
      <h2>{t('deleteTitle')}</h2>
      <p>{t('deleteIntro')}</p>
      {deleteStep === 'idle' ? (
        <button type="button" class="danger" disabled={busy} onClick={sendDeleteCode}>
          {t('deleteSendCode')}
        </button>
      ) : (
        <form onSubmit={confirmDelete}>
          <label>
            {t('code')}
            <input
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              value={code}
              onInput={(e) => setCode(e.currentTarget.value.replace(/\D/g, ''))}
            />
          </label>
          <label class="choice">
            <input type="checkbox" checked={forfeit} onChange={(e) => setForfeit(e.currentTarget.checked)} />
            {t('deleteForfeit')}
          </label>
          <button type="submit" class="danger" disabled={busy || code.length !== 6}>
            {t('deleteConfirmButton')}
          </button>
        </form>
      )}
    </section>
  );
}
