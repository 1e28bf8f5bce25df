// What is written for an account with no request of its own there (issue 40): pushes, withdrawal
// messages, ledger rows and the analysis are in the ACCOUNT's language, whoever's request (an
// admin's, a webhook's, the worker's) writes them; stored texts keep the language they were written in.
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pronostics, walletOperations } from '../../src/db/schema/index.js';
import type { PushDriver, PushMessage } from '../../src/providers/push/index.js';
import { giveMoney, withdrawalRow, withdrawn } from '../affiliation/helpers.js';
import { OPENAI_API_KEY, OPENAI_MODEL, startFakeOpenAi } from '../fakes/openai.js';
import { createTestApp, expectLedgerConsistent, type SignedIn, signIn, type TestApp } from '../helpers.js';
import { checkedOut } from '../payments/helpers.js';

const EN = { 'accept-language': 'en' };

function recordingPush(): PushDriver & { sent: PushMessage[] } {
  const sent: PushMessage[] = [];
  return {
    name: 'log',
    sent,
    async send(message) {
      sent.push(message);
      return { outcome: 'sent' };
    },
  };
}

let t: TestApp;
let push: ReturnType<typeof recordingPush>;
let admin: SignedIn;
beforeAll(async () => {
  push = recordingPush();
  t = await createTestApp({ pushDriver: push, config: { paymentSandboxDelayMs: 2000 } });
  admin = await signIn(t, { role: 'admin' });
});
afterAll(() => t.close());
afterEach(() => expectLedgerConsistent(t));

/** A signed-in account whose language the profile set (its requests below carry no Accept-Language). */
async function account(locale: 'fr' | 'en', credits = 0): Promise<SignedIn> {
  const user = await signIn(t, { credits });
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/user/profile/update',
    headers: user.headers,
    payload: { locale },
  });
  expect(response.statusCode, response.body).toBe(200);
  return user;
}

const ledgerOf = (userId: number, type: string) =>
  t.app.db
    .select({ description: walletOperations.description })
    .from(walletOperations)
    .where(and(eq(walletOperations.userId, userId), eq(walletOperations.type, type as 'withdrawal')));

async function registerDevice(user: SignedIn, token: string) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/user/devices',
    headers: user.headers,
    payload: { token, platform: 'android' },
  });
  expect(response.statusCode, response.body).toBe(201);
}

describe('pushes', () => {
  it('are written in the account’s language', async () => {
    const english = await account('en');
    const french = await account('fr');
    const englishToken = `en:APA91b${'Zq7_x-'.repeat(20)}`;
    const frenchToken = `fr:APA91b${'Zq7_x-'.repeat(20)}`;
    await registerDevice(english, englishToken);
    await registerDevice(french, frenchToken);
    for (const user of [english, french]) {
      await t.app.db.transaction((tx) =>
        t.app.services.events.append(tx, user.id, 'pronostic.succeeded', { id: 1 }),
      );
    }
    await t.app.runtime.pushSender.runOnce();
    expect(push.sent.find((m) => m.token === englishToken)).toMatchObject({
      title: 'Your analysis is ready',
      body: 'Open the app to see your prediction.',
    });
    expect(push.sent.find((m) => m.token === frenchToken)).toMatchObject({
      title: 'Votre analyse est prête',
      body: 'Ouvrez l’application pour découvrir votre pronostic.',
    });
  });
});

describe('withdrawals', () => {
  it('their messages and ledger rows are the owner’s language, even when an admin’s French request writes them', async () => {
    const english = await account('en');
    await giveMoney(t, english.id, 5000);
    const id = await withdrawn(t, english, { amount: 5000, phone: '+237690000000' });
    expect((await withdrawalRow(t, id)).message).toBe('Your withdrawal request is awaiting approval.');
    expect(await ledgerOf(english.id, 'withdrawal')).toEqual([{ description: 'Withdrawal of 5,000 XAF' }]);

    // The admin's request is French; the message it writes is the owner's.
    const approved = await t.app.inject({
      method: 'POST',
      url: `/api/admin/withdrawals/${id}/approve`,
      headers: admin.headers,
    });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().message).toBe('Retrait approuvé.');
    expect((await withdrawalRow(t, id)).message).toBe(
      'Withdrawal approved: the transfer to your mobile money account is in progress.',
    );
    // The sandbox fails a number ending in 0000: the payout's end is written with no request at all.
    t.clock.advance(2000);
    await t.app.runtime.sandboxWebhooks!.deliverDue();
    await t.app.runtime.paymentPoller.drain();
    expect((await withdrawalRow(t, id)).message).toBe(
      'The transfer failed. The amount has been credited back to your referral balance.',
    );
    expect(await ledgerOf(english.id, 'withdrawal_refund')).toEqual([
      { description: 'Refund of the withdrawal of 5,000 XAF' },
    ]);

    const french = await account('fr');
    await giveMoney(t, french.id, 5000);
    const frenchId = await withdrawn(t, french, { amount: 5000 });
    expect((await withdrawalRow(t, frenchId)).message).toBe(
      'Votre demande de retrait est en attente de validation.',
    );
    expect(await ledgerOf(french.id, 'withdrawal')).toEqual([{ description: 'Retrait de 5000 XAF' }]);
  });
});

describe('pack purchases', () => {
  it('the credit’s ledger row is the payer’s language when the provider settles it', async () => {
    const english = await account('en');
    const payment = await checkedOut(t, english);
    t.clock.advance(2000);
    await t.app.runtime.sandboxWebhooks!.deliverDue();
    const [credit] = await ledgerOf(english.id, 'pack_purchase');
    expect(credit?.description).toBe(`Pack purchase: ${payment.credits} credits`);
  });
});

describe('the analysis', () => {
  async function created(user: SignedIn, headers: Record<string, string> = {}) {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/user/pronostic/create',
      headers: { ...user.headers, ...headers },
      payload: { type_id: 1, teams_details: { home: 'Arsenal', away: 'Chelsea', league: 'E0' } },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data.pronostic.id as number;
  }
  const rowOf = async (id: number) =>
    (await t.app.db.select().from(pronostics).where(eq(pronostics.id, id)))[0]!;

  it('is written in the account’s language at creation, and keeps it', async () => {
    const english = await account('en', 5);
    const french = await account('fr', 5);
    // The French account's request asks for English: the analysis is still the account's French.
    const [englishId, frenchId] = [await created(english), await created(french, EN)];
    await t.app.runtime.analysisWorker.drain();
    const [englishRow, frenchRow] = [await rowOf(englishId), await rowOf(frenchId)];
    expect(englishRow).toMatchObject({ status: 'success', locale: 'en' });
    expect(frenchRow).toMatchObject({ status: 'success', locale: 'fr' });
    const englishResult = englishRow.result as Record<string, unknown>;
    const frenchResult = frenchRow.result as Record<string, unknown>;
    expect(englishResult.analysis).toMatch(/Arsenal.*\bgoals?\b/i);
    expect(frenchResult.analysis).toMatch(/Arsenal.*\bbuts?\b/i);
    // The same numbers, other words.
    const { analysis: _a, pick_label: _l, ...englishNumbers } = englishResult;
    const { analysis: _b, pick_label: _m, ...frenchNumbers } = frenchResult;
    expect(englishNumbers).toEqual(frenchNumbers);
    expect(await ledgerOf(english.id, 'pronostic_debit')).toEqual([
      { description: expect.stringMatching(new RegExp(`^Prediction #${englishId} \\(`)) },
    ]);
    expect(await ledgerOf(french.id, 'pronostic_debit')).toEqual([
      { description: expect.stringMatching(new RegExp(`^Pronostic #${frenchId} \\(`)) },
    ]);

    // The account turns French: the stored analysis stays English.
    await t.app.inject({
      method: 'POST',
      url: '/api/user/profile/update',
      headers: english.headers,
      payload: { locale: 'fr' },
    });
    const detail = await t.app.inject({
      method: 'GET',
      url: `/api/user/pronostic/${englishId}`,
      headers: english.headers,
    });
    expect(detail.json().data.pronostic.result.analysis).toBe(englishResult.analysis);
  });

  it('the LLM narrator is asked for the account’s language', async () => {
    const fake = await startFakeOpenAi();
    const llm = await createTestApp({
      config: {
        aiDriver: 'openai',
        ai: {
          baseUrl: fake.baseUrl,
          apiKey: OPENAI_API_KEY,
          model: OPENAI_MODEL,
          timeoutMs: 5_000,
          narrativeDeadlineMs: 10_000,
        },
      },
    });
    try {
      for (const locale of ['en', 'fr'] as const) {
        const user = await signIn(llm, { credits: 1 });
        await llm.app.inject({
          method: 'POST',
          url: '/api/user/profile/update',
          headers: user.headers,
          payload: { locale },
        });
        const response = await llm.app.inject({
          method: 'POST',
          url: '/api/user/pronostic/create',
          headers: user.headers,
          payload: { type_id: 1, teams_details: { home: 'Arsenal', away: 'Chelsea', league: 'E0' } },
        });
        expect(response.statusCode, response.body).toBe(201);
        await llm.app.runtime.analysisWorker.drain();
      }
      expect(fake.requests).toHaveLength(2);
      const [english, french] = fake.requests.map(
        (request) => (request.body.messages as { role: string; content: string }[])[0]!.content,
      );
      expect(english).toContain('Rewrite the match analysis in English');
      expect(french).toContain('Réécris en français');
      const draftOf = (index: number) =>
        JSON.parse((fake.requests[index]!.body.messages as { content: string }[])[1]!.content)
          .statistical_draft;
      expect(draftOf(0)).toMatch(/\bgoals?\b/i);
      expect(draftOf(1)).toMatch(/\bbuts?\b/i);
    } finally {
      await llm.close();
      await fake.close();
    }
  });
});
