// The sandbox's webhooks, delivered: the sandbox driver signs a webhook once a payment's or a
// transfer's delay has passed, and this loop hands each one to the webhook dispatch (the
// money's `receiveWebhook`, the one the webhook route calls, signature check
// included), so development and the tests exercise the path a real provider's webhook takes. It
// runs with the other background loops; a lost delivery only delays the outcome, since the payment
// poller looks at every pending payment and payout.
import type { FastifyBaseLogger } from 'fastify';
import type { WebhookDispatch } from '../money/index.js';
import type { SandboxDriver } from '../providers/payments/sandbox.js';

export interface SandboxWebhooksDeps {
  sandbox: SandboxDriver;
  webhooks: Pick<WebhookDispatch, 'receiveWebhook'>;
  logger: FastifyBaseLogger;
  /** How often due webhooks are looked for (an in-memory check). */
  tickMs?: number;
}

export type SandboxWebhooks = ReturnType<typeof createSandboxWebhooks>;

export function createSandboxWebhooks(deps: SandboxWebhooksDeps) {
  const { sandbox, webhooks, logger } = deps;
  let timer: NodeJS.Timeout | undefined;
  let delivering: Promise<number> | undefined;

  /** Delivers the webhooks whose time has come; returns how many (tests call it after moving the clock). */
  async function deliverDue(): Promise<number> {
    const due = sandbox.takeDueWebhooks();
    await Promise.all(
      due.map(async ({ rawBody, headers }) => {
        try {
          const received = await webhooks.receiveWebhook(sandbox.name, rawBody, headers);
          logger.info({ provider: sandbox.name, ...received }, 'payment webhook');
        } catch (error) {
          logger.warn({ err: error, provider: sandbox.name }, 'sandbox webhook not applied');
        }
      }),
    );
    return due.length;
  }

  function tick(): void {
    delivering ??= deliverDue().finally(() => {
      delivering = undefined;
    });
  }

  return {
    start(): void {
      if (timer) return;
      timer = setInterval(tick, deps.tickMs ?? 200);
      timer.unref();
    },

    deliverDue,

    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = undefined;
      await delivering;
    },
  };
}
