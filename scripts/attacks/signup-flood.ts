// `npm run attack:signup`: an SMS-pumping flood on sign-ups (issue 42, decision 0104). An attacker
// with 13 IPv4 addresses (or one IPv6 /56: `--attacker ipv6`) asks codes for random valid +237
// numbers and solves every challenge it gets (altcha-lib's solver), while new users from networks
// not taking part sign up at a realistic rate; it prints the share of those users who got their
// code and exits 1 under 90 %.
//
// In-process (the default): the app on an in-memory database and a manual clock, `--hours` of
// simulated time in ticks of `--tick` seconds. The clock stands still while the attacker works, and
// in each tick it goes on until every one of its networks is refused: it is faster than any 2 cores
// (what holds it is the per-network share; the challenge prices each of its codes). The per-minute
// flood guard is set out of the way, so that only the SMS rules are measured.
// Against a running service: `--url http://127.0.0.1:3000 --minutes 10`, in real time; the service
// must believe X-Forwarded-For from this client (TRUST_PROXY) and keep its SMS in a sandbox.
// In-process, halfway through, a prober asks, under the pressure the flood made, for numbers that have accounts
// and numbers that do not, from one network of its own (issue 55, decision 0122): past its first
// few numbers its answers must be the same for both, else the run exits 1.
import { randomInt } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { type Challenge, solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';

export interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: answers are read as DESIGN shows them; a wrong guess fails the run.
  body: any;
}

/** How the actors reach the service: one `POST /api/otp/generate` from the client address `ip`. */
export type Generate = (body: Record<string, unknown>, ip: string) => Promise<Answer>;

export interface FloodOptions {
  attacker: 'ipv4' | 'ipv6';
  /** New users from networks not taking part, per hour. */
  legitPerHour: number;
  /** How long a new user keeps trying (retrying after a 429) before giving up. */
  patienceSeconds: number;
}

export interface FloodReport {
  legitTried: number;
  legitServed: number;
  /** legitServed / legitTried (1 when nobody tried). */
  share: number;
  attackerRequests: number;
  attackerCodes: number;
  attackerSolved: number;
  /** Mean time the solver took per challenge, ms. */
  meanSolveMs: number;
  challengesToLegit: number;
}

/** A valid Cameroonian mobile number nobody chose: +237 6[5-9]x xx xx xx. */
export function randomCameroonMobile(): string {
  return `+2376${randomInt(7, 10)}${String(randomInt(0, 10_000_000)).padStart(7, '0')}`;
}

/** The attacker's addresses: 13 IPv4 ones, or any address of one IPv6 /56. */
function attackerAddress(kind: FloodOptions['attacker'], n: number): string {
  if (kind === 'ipv4') return `198.51.100.${(n % 13) + 10}`;
  // 2001:db8:aa:bb00::/56: the fourth group's high byte is fixed, its low byte and the rest are free.
  const subnet = (0xbb00 + randomInt(0, 256)).toString(16);
  return `2001:db8:aa:${subnet}:${randomInt(0, 65536).toString(16)}::${randomInt(1, 65536).toString(16)}`;
}

/**
 * A new user's address: most on addresses of their own (carriers' pools), some behind one of a
 * few carrier NAT addresses shared with other new users, some on IPv6 (a /64 in a /48 of its own).
 */
function legitAddress(n: number): string {
  const roll = n % 20;
  if (roll < 3) return `41.202.219.${(n % 5) + 1}`;
  if (roll < 5) return `2001:db8:${(0x100 + n).toString(16)}:1::${randomInt(1, 65536).toString(16)}`;
  return `102.${(n >> 16) % 256}.${(n >> 8) % 256}.${n % 256}`;
}

export function proofOf(challenge: Challenge, solution: { counter: number; derivedKey: string }): string {
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

/** The actors and their counts; `clockNow` reads the time the service lives in (ms). */
export function signupFlood(generate: Generate, options: FloodOptions, clockNow: () => number) {
  const report: FloodReport = {
    legitTried: 0,
    legitServed: 0,
    share: 1,
    attackerRequests: 0,
    attackerCodes: 0,
    attackerSolved: 0,
    meanSolveMs: 0,
    challengesToLegit: 0,
  };
  let solveMs = 0;
  let attackerN = 0;

  async function solve(challenge: Challenge): Promise<{ counter: number; derivedKey: string }> {
    const started = performance.now();
    const solution = await solveChallenge({ challenge, deriveKey, timeout: 120_000 });
    if (!solution) throw new Error('the solver gave up on a challenge');
    solveMs += performance.now() - started;
    return solution;
  }

  /** One request as a client does it: a 428 is solved and the same request sent with its proof. */
  async function ask(phone: string, ip: string, onChallenge: () => void): Promise<Answer> {
    const body = { phone, country: 'CM', method: 'sms' };
    const first = await generate(body, ip);
    if (first.status !== 428) return first;
    onChallenge();
    const challenge = first.body.data.challenge as Challenge;
    return generate({ ...body, proof: proofOf(challenge, await solve(challenge)) }, ip);
  }

  /** One attack request; true when it was refused (429). */
  async function attackOnce(): Promise<boolean> {
    attackerN += 1;
    report.attackerRequests += 1;
    const answer = await ask(randomCameroonMobile(), attackerAddress(options.attacker, attackerN), () => {
      report.attackerSolved += 1;
    });
    if (answer.status === 200) report.attackerCodes += 1;
    else if (answer.status !== 429)
      throw new Error(`attacker got ${answer.status}: ${JSON.stringify(answer.body)}`);
    return answer.status === 429;
  }

  return {
    report,
    /** Attacks until every network it has is refused in a row (the clock standing still). */
    async attackBurst(maxRequests = 2000): Promise<void> {
      const refusalsToStop = options.attacker === 'ipv4' ? 13 : 16;
      let refusedInARow = 0;
      for (let i = 0; i < maxRequests && refusedInARow < refusalsToStop; i++) {
        refusedInARow = (await attackOnce()) ? refusedInARow + 1 : 0;
      }
    },
    attackOnce,
    /**
     * A new user's sign-up: asks, and on a 429 comes back when told (within their patience). The
     * returned function makes one step and says when to call it again (ms on the service's clock),
     * or undefined when done.
     */
    newUser(n: number): () => Promise<number | undefined> {
      const phone = randomCameroonMobile();
      const ip = legitAddress(n);
      const giveUpAt = clockNow() + options.patienceSeconds * 1000;
      report.legitTried += 1;
      return async () => {
        const answer = await ask(phone, ip, () => {
          report.challengesToLegit += 1;
        });
        if (answer.status === 200) {
          report.legitServed += 1;
          return undefined;
        }
        if (answer.status !== 429)
          throw new Error(`new user got ${answer.status}: ${JSON.stringify(answer.body)}`);
        const next = clockNow() + Math.max(1, Number(answer.body.data?.retry_after ?? 60)) * 1000;
        return next <= giveUpAt ? next : undefined;
      };
    },
    finish(): FloodReport {
      report.share = report.legitTried === 0 ? 1 : report.legitServed / report.legitTried;
      report.meanSolveMs =
        report.attackerSolved + report.challengesToLegit > 0
          ? solveMs / (report.attackerSolved + report.challengesToLegit)
          : 0;
      return report;
    },
  };
}

export interface ProbeReport {
  /** The prober's answers (statuses) for known and for unknown numbers, past its first `warmup` numbers. */
  known: number[];
  unknown: number[];
  /** Some answer came for one kind of number and never for the other. */
  distinguishable: boolean;
}

/**
 * A prober asks, from one address and without ever solving a challenge, for a known and an unknown
 * number in turn; its first `warmup` numbers (what the service lets any network learn) are left out.
 */
export async function probeMembership(
  generate: Generate,
  numbers: { known: string[]; unknown: string[] },
  ip: string,
  warmup: number,
): Promise<ProbeReport> {
  const report: ProbeReport = { known: [], unknown: [], distinguishable: false };
  let asked = 0;
  for (let i = 0; i < Math.min(numbers.known.length, numbers.unknown.length); i++) {
    for (const kind of ['known', 'unknown'] as const) {
      const answer = await generate({ phone: numbers[kind][i], country: 'CM', method: 'sms' }, ip);
      asked += 1;
      if (asked > warmup) report[kind].push(answer.status);
    }
  }
  const seen = (statuses: number[]) => [...new Set(statuses)].sort().join(',');
  report.distinguishable = seen(report.known) !== seen(report.unknown);
  return report;
}

/**
 * The simulation on a manual clock: each tick, the new users due make their step, then the attacker
 * bursts, then the clock moves on by the tick.
 */
export async function simulateSignupFlood(
  generate: Generate,
  clock: { now(): Date; advance(ms: number): void },
  options: FloodOptions & { hours: number; tickSeconds: number },
  /** Run once halfway, right after the attacker's burst (the pressure at its height). */
  midway?: () => Promise<void>,
): Promise<FloodReport> {
  const flood = signupFlood(generate, options, () => clock.now().getTime());
  const start = clock.now().getTime();
  const end = start + options.hours * 3_600_000;
  const arrivalEveryMs = 3_600_000 / options.legitPerHour;
  let nextArrival = start + arrivalEveryMs / 2;
  let arrivals = 0;
  let waiting: { at: number; step: () => Promise<number | undefined> }[] = [];
  while (clock.now().getTime() < end) {
    const now = clock.now().getTime();
    while (nextArrival <= now) {
      waiting.push({ at: nextArrival, step: flood.newUser(arrivals++) });
      nextArrival += arrivalEveryMs;
    }
    const due = waiting.filter((user) => user.at <= now);
    waiting = waiting.filter((user) => user.at > now);
    for (const user of due) {
      const at = await user.step();
      if (at !== undefined) waiting.push({ at, step: user.step });
    }
    await flood.attackBurst();
    if (midway && clock.now().getTime() >= start + (end - start) / 2) {
      await midway();
      midway = undefined;
    }
    clock.advance(options.tickSeconds * 1000);
  }
  // Those still waiting to retry had their patience left: let them finish it.
  while (waiting.length > 0) {
    const next = Math.min(...waiting.map((user) => user.at));
    clock.advance(Math.max(0, next - clock.now().getTime()));
    const due = waiting.filter((user) => user.at <= next);
    waiting = waiting.filter((user) => user.at > next);
    for (const user of due) {
      const at = await user.step();
      if (at !== undefined) waiting.push({ at, step: user.step });
    }
  }
  return flood.finish();
}

/** Against a running service, in real time: the attacker on every core, new users on a timer. */
async function floodUrl(url: string, options: FloodOptions & { minutes: number }): Promise<FloodReport> {
  const generate: Generate = async (body, ip) => {
    const response = await fetch(new URL('/api/otp/generate', url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: await response.json() };
  };
  const flood = signupFlood(generate, options, () => Date.now());
  const end = Date.now() + options.minutes * 60_000;
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
  const attackers = Array.from({ length: availableParallelism() }, async () => {
    while (Date.now() < end) if (await flood.attackOnce()) await sleep(50);
  });
  const users: Promise<void>[] = [];
  for (let n = 0; Date.now() < end; n++) {
    const step = flood.newUser(n);
    users.push(
      (async () => {
        for (let at = await step(); at !== undefined; at = await step()) await sleep(at - Date.now());
      })(),
    );
    await sleep(3_600_000 / options.legitPerHour);
  }
  await Promise.all([...attackers, ...users]);
  return flood.finish();
}

async function inProcess(options: FloodOptions & { hours: number; tickSeconds: number }) {
  const { buildApp } = await import('../../src/app.js');
  const { testConfig } = await import('../../src/config.js');
  const { ManualClock } = await import('../../src/lib/clock.js');
  const { PROBE_DISTINCT_NUMBERS } = await import('../../src/modules/auth/sms-limits.js');
  const clock = new ManualClock(new Date());
  const codes = new Map<string, string>();
  const app = await buildApp({
    config: testConfig({ rateLimitPerMinute: 1_000_000 }),
    clock,
    logger: false,
    runLoops: false,
    messenger: {
      send: async (message: { to: string; code: string }) => {
        codes.set(message.to, message.code);
      },
    },
  });
  await app.ready();
  try {
    const post = async (url: string, body: Record<string, unknown>, ip: string): Promise<Answer> => {
      const response = await app.inject({ method: 'POST', url, payload: body, remoteAddress: ip });
      return { status: response.statusCode, body: response.json() };
    };
    const generate: Generate = (body, ip) => post('/api/otp/generate', body, ip);
    // Members before the flood: each signed in once, from a network of its own.
    const known = Array.from({ length: 12 }, randomCameroonMobile);
    for (const [n, phone] of known.entries()) {
      const ip = `203.0.113.${n + 1}`;
      const asked = await generate({ phone, country: 'CM', method: 'sms' }, ip);
      const verified = await post('/api/otp/verify', { phone, code: codes.get(phone) }, ip);
      if (asked.status !== 200 || verified.status !== 200)
        throw new Error(`member ${phone} could not sign in`);
    }
    clock.advance(61_000);
    const unknown = Array.from({ length: 12 }, randomCameroonMobile);
    let probe: ProbeReport | undefined;
    const flood = await simulateSignupFlood(generate, clock, options, async () => {
      probe = await probeMembership(generate, { known, unknown }, '192.0.2.77', PROBE_DISTINCT_NUMBERS);
    });
    return { flood, probe };
  } finally {
    await app.close();
  }
}

const isMain =
  import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('signup-flood.ts');
if (isMain) {
  const { values } = parseArgs({
    options: {
      url: { type: 'string' },
      attacker: { type: 'string', default: 'ipv4' },
      'legit-per-hour': { type: 'string', default: '60' },
      hours: { type: 'string', default: '2' },
      tick: { type: 'string', default: '10' },
      minutes: { type: 'string', default: '10' },
      patience: { type: 'string', default: '900' },
    },
  });
  if (values.attacker !== 'ipv4' && values.attacker !== 'ipv6') throw new Error('--attacker ipv4 or ipv6');
  const common: FloodOptions = {
    attacker: values.attacker,
    legitPerHour: Number(values['legit-per-hour']),
    patienceSeconds: Number(values.patience),
  };
  const { flood: report, probe } = values.url
    ? { flood: await floodUrl(values.url, { ...common, minutes: Number(values.minutes) }), probe: undefined }
    : await inProcess({ ...common, hours: Number(values.hours), tickSeconds: Number(values.tick) });
  console.log(
    [
      `attacker (${common.attacker === 'ipv4' ? '13 IPv4 addresses' : 'one IPv6 /56'}): ${report.attackerRequests} requests, ${report.attackerCodes} codes sent, ${report.attackerSolved} challenges solved`,
      `new users: ${report.legitServed} of ${report.legitTried} got their code (${(report.share * 100).toFixed(1)} %), ${report.challengesToLegit} challenged`,
      `mean solve: ${report.meanSolveMs.toFixed(0)} ms`,
      probe
        ? `prober: known numbers answered ${probe.known.join(' ')}; unknown numbers ${probe.unknown.join(' ')}: ${probe.distinguishable ? 'told apart' : 'cannot be told apart'}`
        : 'prober: in-process only',
    ].join('\n'),
  );
  if (report.share < 0.9) {
    console.error('FAIL: fewer than 90 % of new users got their code');
    process.exit(1);
  }
  if (probe?.distinguishable) {
    console.error('FAIL: a prober tells numbers with an account from numbers without one');
    process.exit(1);
  }
  if (probe && !probe.known.includes(428)) {
    console.error('FAIL: the prober never met the pressure it was meant to probe under');
    process.exit(1);
  }
}
