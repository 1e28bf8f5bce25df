// The start refuses LLM settings that could outlast a job's lease: a slow LLM must never turn a
// paid analysis into a cancellation. The narrator's deadline fits the lease, its tries fit the deadline.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config.js';

const base = {
  APP_ENV: 'test',
  APP_SECRET: 'test-secret-0123456789abcdef0123456789abcdef',
  DATABASE_URL: 'memory://',
};
const openai = {
  ...base,
  AI_DRIVER: 'openai',
  AI_BASE_URL: 'http://127.0.0.1:9/v1',
  AI_API_KEY: 'sk-test',
  AI_MODEL: 'gpt-test',
};

function refusal(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('the configuration was accepted');
}

describe('narrative deadline and worker settings', () => {
  it('defaults: 4 analyses at once, a 60 s lease, a 40 s narrative deadline that 3 tries of 10 s fit', () => {
    const config = loadConfig(openai);
    expect(config.workerConcurrency).toBe(4);
    expect(config.workerLeaseSeconds).toBe(60);
    expect(config.ai).toMatchObject({ timeoutMs: 10_000, narrativeDeadlineMs: 40_000 });
  });

  it('refuses LLM tries that cannot fit the narrative deadline, in one line naming the variable', () => {
    const message = refusal({ ...openai, AI_TIMEOUT_MS: '20000' });
    expect(message).toMatch(/^AI_TIMEOUT_MS=20000 does not fit AI_NARRATIVE_DEADLINE_MS=40000/);
    expect(message).not.toContain('\n');
    // Without the LLM the per-call timeout is never used.
    expect(loadConfig({ ...base, AI_TIMEOUT_MS: '20000' }).ai.timeoutMs).toBe(20_000);
  });

  it('refuses a narrative deadline that leaves less than a third of the lease', () => {
    const message = refusal({ ...openai, AI_NARRATIVE_DEADLINE_MS: '45000' });
    expect(message).toMatch(/^AI_NARRATIVE_DEADLINE_MS=45000 does not fit the job lease/);
    expect(
      loadConfig({ ...openai, AI_NARRATIVE_DEADLINE_MS: '45000', WORKER_LEASE_SECONDS: '90' }).ai
        .narrativeDeadlineMs,
    ).toBe(45_000);
    expect(refusal({ ...base, WORKER_LEASE_SECONDS: '30' })).toMatch(/^AI_NARRATIVE_DEADLINE_MS=40000/);
  });

  it('refuses a concurrency or lease out of range', () => {
    expect(refusal({ ...base, WORKER_CONCURRENCY: '0' })).toMatch(/^WORKER_CONCURRENCY="0" is invalid/);
    expect(refusal({ ...base, WORKER_LEASE_SECONDS: 'soon' })).toMatch(/^WORKER_LEASE_SECONDS=/);
  });
});
