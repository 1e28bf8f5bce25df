// The public page the app stores link to for account deletion (`/account/delete`): HTML rendered on
// the server in the page's language (?lang, the `lang` cookie its FR / EN switch sets,
// Accept-Language: src/lib/page-locale.ts) and one same-origin script in the same language (the
// CSP's `script-src 'self'` holds, as for the track-record page); the texts are the catalogue's
// (`pages.accountDelete`). It explains how to delete an account from the app and what is deleted
// or kept, and lets a person do it here with two codes sent to their phone: a sign-in code (POST
// /api/otp/generate, /api/otp/verify, which gives a token kept only in the page's memory), then the
// deletion's own code (POST /api/user/account/delete/code), entered to confirm (POST
// /api/user/account/delete). Its calls name the page's language, so the API's messages it shows
// are in it too. A remaining balance is shown as the API states it, and the person may give it up
// by ticking a box.
import { DEFAULT_LOCALE, type Locale } from '../../lib/locale.js';
import { catalogueFor } from '../../lib/messages.js';
import { js, jsText, languageSwitch, pageHead, perLocale } from '../../lib/page-html.js';

/** The script's address: French at the address it always had, another language named in it. */
function scriptPath(locale: Locale): string {
  return locale === DEFAULT_LOCALE ? '/account/delete/app.js' : `/account/delete/app.js?lang=${locale}`;
}

/** The page's own style rules (`pageHead` adds the language switch's). */
const ACCOUNT_DELETE_STYLE = `  * { box-sizing: border-box; }
  body { font-family: system-ui, sans-serif; margin: 0 auto; max-width: 720px; padding: 1rem 1.25rem 3rem; color: #1d2330; line-height: 1.5; }
  h1 { font-size: 1.6rem; margin-top: .5rem; } h2 { font-size: 1.2rem; margin-top: 2rem; }
  ol { padding-left: 1.4rem; }
  .note { color: #556; font-size: .9rem; }
  form { display: grid; gap: .75rem; margin-top: 1rem; padding: 1rem; border: 1px solid #dde; border-radius: 8px; background: #fafbff; }
  [hidden] { display: none !important; }
  label { display: grid; gap: .25rem; font-weight: 600; }
  label.check { display: flex; gap: .5rem; align-items: flex-start; font-weight: 400; }
  input, select, button { font: inherit; padding: .6rem .7rem; border: 1px solid #99a; border-radius: 6px; width: 100%; }
  label.check input { width: auto; margin-top: .3rem; }
  button { background: #b3261e; color: #fff; border-color: #b3261e; font-weight: 600; cursor: pointer; }
  button.secondary { background: #1d2330; border-color: #1d2330; }
  button:disabled { opacity: .6; cursor: wait; }
  .row { display: grid; grid-template-columns: 1fr; gap: .75rem; }
  @media (min-width: 600px) { .row { grid-template-columns: 14rem 1fr; } }
  #status { min-height: 1.5rem; padding: .5rem .75rem; border-radius: 6px; }
  #status[data-kind="error"] { background: #fdecea; color: #8a1c14; }
  #status[data-kind="ok"] { background: #e8f5e9; color: #1b5e20; }
  @media (min-width: 900px) { body { padding-top: 2rem; } }
`;

export const accountDeletePage = perLocale((locale) => {
  const t = catalogueFor(locale).pages.accountDelete;
  return `${pageHead(locale, t.title, ACCOUNT_DELETE_STYLE)}<body>
${languageSwitch(locale)}<h1>${t.title}</h1>
<p>${t.intro}</p>

<h2>${t.fromApp}</h2>
<ol>
${t.appSteps
  .map(
    (step) => `  <li>${step}</li>
`,
  )
  .join('')}</ol>

<h2>${t.whatHappens}</h2>
<ul>
${t.outcomes
  .map(
    (outcome) => `  <li>${outcome}</li>
`,
  )
  .join('')}</ul>
<p class="note">${t.exportNote}</p>

<h2>${t.fromPage}</h2>
<p id="status" role="status" aria-live="polite"></p>

<form id="phone-form" novalidate>
  <div class="row">
    <label>${t.country}
      <select id="country" name="country">
${Object.entries(t.countries)
  .map(
    ([code, name]) => `        <option value="${code}"${code === 'CM' ? ' selected' : ''}>${name}</option>
`,
  )
  .join('')}      </select>
    </label>
    <label>${t.phone}
      <input id="phone" name="phone" type="tel" autocomplete="tel" inputmode="tel" maxlength="32" placeholder="+237 6 90 00 00 00" required>
    </label>
  </div>
  <button type="submit" class="secondary">${t.sendSignInCode}</button>
</form>

<form id="signin-form" hidden novalidate>
  <label>${t.signInCode}
    <input id="signin-code" name="code" inputmode="numeric" autocomplete="one-time-code" maxlength="6" pattern="[0-9]{6}" required>
  </label>
  <button type="submit" class="secondary">${t.verifyCode}</button>
</form>

<form id="delete-form" hidden novalidate>
  <label>${t.deletionCode}
    <input id="delete-code" name="code" inputmode="numeric" autocomplete="one-time-code" maxlength="6" pattern="[0-9]{6}" required>
  </label>
  <label class="check" id="forfeit-row" hidden><input id="forfeit" type="checkbox"> <span id="forfeit-text">${t.forfeit}</span></label>
  <button type="submit">${t.deleteForGood}</button>
</form>

<script src="${scriptPath(locale)}" defer></script>
</body>
</html>
`;
});

export const accountDeleteScript = perLocale((locale) => {
  const t = catalogueFor(locale).pages.accountDelete;
  return String.raw`'use strict';
(function () {
  var token = null;
  var phone = null;
  var status = document.getElementById('status');
  function show(kind, text) { status.setAttribute('data-kind', kind); status.textContent = text; }
  function step(id) {
    ['phone-form', 'signin-form', 'delete-form'].forEach(function (f) { document.getElementById(f).hidden = f !== id; });
    status.setAttribute('data-step', id);
    var first = document.querySelector('#' + id + ' input');
    if (first) first.focus();
  }
  function call(path, body, withToken) {
    var headers = { 'content-type': 'application/json', accept: 'application/json', 'accept-language': ${js(locale)} };
    if (withToken) headers.authorization = 'Bearer ' + token;
    return fetch(path, { method: 'POST', headers: headers, body: JSON.stringify(body) }).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (json) { return { status: r.status, body: json }; });
    });
  }
  function failed(answer) {
    var text = (answer.body && answer.body.message) || ${js(t.genericError)};
    var wait = answer.body && answer.body.data && answer.body.data.retry_after;
    show('error', wait ? ${jsText(t.retryIn, 'text', 'wait')} : text);
  }
  function busy(form, on) { form.querySelector('button').disabled = on; }
  function handle(id, run) {
    var form = document.getElementById(id);
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      busy(form, true);
      run().catch(function () { show('error', ${js(t.unreachable)}); })
        .then(function () { busy(form, false); });
    });
  }
  handle('phone-form', function () {
    phone = document.getElementById('phone').value.replace(/[\s.()-]/g, '');
    var country = document.getElementById('country').value;
    return call('/api/otp/generate', { phone: phone, country: country, method: 'sms' }).then(function (a) {
      if (a.status !== 200) return failed(a);
      phone = a.body.data.phone;
      show('ok', ${jsText(t.signInCodeSent, 'phone')});
      step('signin-form');
    });
  });
  handle('signin-form', function () {
    return call('/api/otp/verify', { phone: phone, code: document.getElementById('signin-code').value.trim() }).then(function (a) {
      if (a.status !== 200) return failed(a);
      token = a.body.data.token;
      return call('/api/user/account/delete/code', { method: 'sms' }, true).then(function (b) {
        if (b.status !== 200) return failed(b);
        show('ok', b.body.message);
        step('delete-form');
      });
    });
  });
  handle('delete-form', function () {
    var body = { code: document.getElementById('delete-code').value.trim() };
    if (document.getElementById('forfeit').checked) body.forfeit_balance = true;
    return call('/api/user/account/delete', body, true).then(function (a) {
      if (a.status === 200) {
        token = null;
        show('ok', a.body.message);
        document.getElementById('delete-form').hidden = true;
        status.setAttribute('data-step', 'done');
        return;
      }
      if (a.status === 409 && a.body.data && a.body.data.reason === 'balance') {
        document.getElementById('forfeit-row').hidden = false;
      }
      failed(a);
    });
  });
  step('phone-form');
  show('ok', ${js(t.start)});
})();
`;
});
