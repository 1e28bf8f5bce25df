// The public page the app stores link to for account deletion (`/account/delete`): static French
// HTML and one same-origin script (the CSP's `script-src 'self'` holds, as for the track-record
// page). It explains how to delete an account from the app and lets a person do it here with two
// codes sent to their phone: a sign-in code (POST /api/otp/generate, /api/otp/verify, which gives a
// token kept only in the page's memory), then the deletion's own code (POST
// /api/user/account/delete/code), entered to confirm (POST /api/user/account/delete). A remaining
// balance is shown as the API states it, and the person may give it up by ticking a box.

export const ACCOUNT_DELETE_PAGE = `<!doctype html>
<html lang="fr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Supprimer mon compte</title>
<link rel="icon" href="data:,">
<style>
  * { box-sizing: border-box; }
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
</style>
</head>
<body>
<h1>Supprimer mon compte</h1>
<p>Vous pouvez supprimer votre compte à tout moment, depuis l’application ou depuis cette page.</p>

<h2>Depuis l’application</h2>
<ol>
  <li>Ouvrez l’application et connectez-vous.</li>
  <li>Allez dans <strong>Profil</strong>, puis <strong>Supprimer mon compte</strong>.</li>
  <li>Saisissez le code de confirmation reçu par SMS : le compte est supprimé aussitôt.</li>
</ol>

<h2>Ce qui est supprimé, ce qui est conservé</h2>
<ul>
  <li>Supprimés : votre numéro de téléphone, votre nom, votre pseudo, votre photo, vos demandes d’assistance et leurs pièces jointes, vos sessions (vous êtes déconnecté partout).</li>
  <li>Anonymisés : vos pronostics, gardés sans aucun lien avec vous pour le bilan public.</li>
  <li>Conservés, sans votre identité : les opérations financières (paiements, retraits, mouvements du solde), que nous devons conserver pour notre comptabilité.</li>
  <li>Votre numéro est libéré : une nouvelle inscription avec ce numéro crée un nouveau compte, vide.</li>
  <li>La suppression est refusée tant qu’un paiement ou un retrait est en cours. S’il vous reste un solde de parrainage, il vous est indiqué et vous devez confirmer y renoncer.</li>
</ul>
<p class="note">Avant de supprimer votre compte, vous pouvez télécharger vos données depuis l’application (Profil, puis Exporter mes données).</p>

<h2>Depuis cette page</h2>
<p id="status" role="status" aria-live="polite"></p>

<form id="phone-form" novalidate>
  <div class="row">
    <label>Pays
      <select id="country" name="country">
        <option value="CM" selected>Cameroun (+237)</option>
        <option value="CI">Côte d’Ivoire (+225)</option>
        <option value="SN">Sénégal (+221)</option>
        <option value="GA">Gabon (+241)</option>
        <option value="FR">France (+33)</option>
      </select>
    </label>
    <label>Numéro de téléphone
      <input id="phone" name="phone" type="tel" autocomplete="tel" inputmode="tel" maxlength="32" placeholder="+237 6 90 00 00 00" required>
    </label>
  </div>
  <button type="submit" class="secondary">Recevoir un code de connexion</button>
</form>

<form id="signin-form" hidden novalidate>
  <label>Code de connexion reçu par SMS
    <input id="signin-code" name="code" inputmode="numeric" autocomplete="one-time-code" maxlength="6" pattern="[0-9]{6}" required>
  </label>
  <button type="submit" class="secondary">Vérifier le code</button>
</form>

<form id="delete-form" hidden novalidate>
  <label>Code de confirmation de la suppression (second SMS)
    <input id="delete-code" name="code" inputmode="numeric" autocomplete="one-time-code" maxlength="6" pattern="[0-9]{6}" required>
  </label>
  <label class="check" id="forfeit-row" hidden><input id="forfeit" type="checkbox"> <span id="forfeit-text">Je renonce définitivement à mon solde restant.</span></label>
  <button type="submit">Supprimer définitivement mon compte</button>
</form>

<script src="/account/delete/app.js" defer></script>
</body>
</html>
`;

export const ACCOUNT_DELETE_SCRIPT = String.raw`'use strict';
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
    var headers = { 'content-type': 'application/json', accept: 'application/json' };
    if (withToken) headers.authorization = 'Bearer ' + token;
    return fetch(path, { method: 'POST', headers: headers, body: JSON.stringify(body) }).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (json) { return { status: r.status, body: json }; });
    });
  }
  function failed(answer) {
    var text = (answer.body && answer.body.message) || 'Une erreur est survenue. Réessayez.';
    var wait = answer.body && answer.body.data && answer.body.data.retry_after;
    show('error', wait ? text + ' (réessayez dans ' + wait + ' s)' : text);
  }
  function busy(form, on) { form.querySelector('button').disabled = on; }
  function handle(id, run) {
    var form = document.getElementById(id);
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      busy(form, true);
      run().catch(function () { show('error', 'Le service est injoignable. Réessayez dans un instant.'); })
        .then(function () { busy(form, false); });
    });
  }
  handle('phone-form', function () {
    phone = document.getElementById('phone').value.replace(/[\s.()-]/g, '');
    var country = document.getElementById('country').value;
    return call('/api/otp/generate', { phone: phone, country: country, method: 'sms' }).then(function (a) {
      if (a.status !== 200) return failed(a);
      phone = a.body.data.phone;
      show('ok', 'Un code de connexion a été envoyé au ' + phone + '.');
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
  show('ok', 'Saisissez le numéro de téléphone de votre compte pour commencer.');
})();
`;
