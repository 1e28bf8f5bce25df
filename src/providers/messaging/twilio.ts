// Twilio Programmable Messaging: SMS with our French sentence as the body, and WhatsApp through an
// approved authentication content template (free-form text outside a 24 h session is refused).
import type { Config } from '../../config.js';
import { otpChannels } from '../../lib/allowed-values.js';
import { ConfigError } from '../../lib/env-settings.js';
import { isRecord } from '../http-answers.js';
import { type HttpDriverDeps, type ProviderAnswer, postWithRetry } from './http.js';
import {
  type Channel,
  type CodeMessage,
  type MessagingDriver,
  MessagingError,
  type MessagingFailure,
} from './types.js';

type TwilioSettings = Config['twilio'];

/** Twilio's error codes worth naming (INTEGRATIONS.md); anything else is a plain rejection. */
const FAILURES: Record<number, MessagingFailure> = {
  21211: 'invalid_recipient',
  21614: 'invalid_recipient',
  21408: 'region_not_permitted',
  21608: 'unverified_recipient',
  21612: 'invalid_sender',
  20429: 'rate_limited',
  63016: 'outside_session',
  20003: 'unauthorized',
};

/** Twilio's queue limit for ValidityPeriod (its errors 21624/90007). */
const MAX_VALIDITY_SECONDS = 36_000;

/** What a channel lacks in the settings, in the words of the variables to set; undefined when ready. */
export function twilioChannelProblem(settings: TwilioSettings, channel: Channel): string | undefined {
  if (channel === 'sms' && !settings.smsFrom && !settings.messagingServiceSid) {
    return 'twilio SMS needs TWILIO_SMS_FROM or TWILIO_MESSAGING_SERVICE_SID';
  }
  if (channel === 'whatsapp' && (!settings.whatsappFrom || !settings.whatsappContentSid)) {
    return 'twilio WhatsApp needs TWILIO_WHATSAPP_FROM and TWILIO_WHATSAPP_CONTENT_SID';
  }
  return undefined;
}

export function createTwilioDriver(settings: TwilioSettings, deps: HttpDriverDeps): MessagingDriver {
  const { accountSid, authToken } = settings;
  if (!accountSid) throw new ConfigError('TWILIO_ACCOUNT_SID is required when the twilio driver is used');
  if (!authToken) throw new ConfigError('TWILIO_AUTH_TOKEN is required when the twilio driver is used');
  const url = `${settings.baseUrl}/2010-04-01/Accounts/${encodeURIComponent(accountSid)}/Messages.json`;
  const authorization = `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`;
  const channels = otpChannels.filter((c) => !twilioChannelProblem(settings, c));

  return {
    name: 'twilio',
    channels,
    async send(message) {
      const problem = twilioChannelProblem(settings, message.channel);
      if (problem) throw new ConfigError(problem);
      const form =
        message.channel === 'sms' ? smsFields(settings, message) : whatsappFields(settings, message);
      // A code that leaves Twilio's queue after it expired is useless and still billed.
      form.set('ValidityPeriod', String(Math.min(Math.max(message.ttlSeconds, 1), MAX_VALIDITY_SECONDS)));

      const body = await postWithRetry({
        ...deps,
        provider: 'twilio',
        url,
        headers: {
          authorization,
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: form.toString(),
        toError: toMessagingError,
      });
      deps.logger.debug(
        { provider: 'twilio', channel: message.channel, sid: isRecord(body) ? body.sid : undefined },
        'code message accepted',
      );
    },
  };
}

function smsFields(settings: TwilioSettings, message: CodeMessage): URLSearchParams {
  const form = new URLSearchParams({ To: message.to, Body: message.text });
  // One sender only: a Messaging Service picks from its own pool (and the registered alphanumeric
  // sender IDs Cameroonian operators require), so it wins when both are configured.
  if (settings.messagingServiceSid) form.set('MessagingServiceSid', settings.messagingServiceSid);
  else form.set('From', settings.smsFrom as string);
  return form;
}

function whatsappFields(settings: TwilioSettings, message: CodeMessage): URLSearchParams {
  const from = (settings.whatsappFrom as string).replace(/^whatsapp:/, '');
  return new URLSearchParams({
    To: `whatsapp:${message.to}`,
    From: `whatsapp:${from}`,
    // The English template when one is configured; otherwise the French one, whatever the language.
    ContentSid: ((message.locale === 'en' && settings.whatsappContentSidEn) ||
      settings.whatsappContentSid) as string,
    ContentVariables: JSON.stringify({ 1: message.code }),
  });
}

/** Twilio answers errors as `{code, message, more_info, status}`. */
function toMessagingError({ status, body }: ProviderAnswer): MessagingError {
  const code = isRecord(body) && typeof body.code === 'number' ? body.code : undefined;
  const text = isRecord(body) && typeof body.message === 'string' ? body.message : `HTTP ${status}`;
  let reason: MessagingFailure = (code !== undefined ? FAILURES[code] : undefined) ?? 'rejected';
  if (status === 429) reason = 'rate_limited';
  else if (status >= 500) reason = 'unavailable';
  else if (status === 401 && reason === 'rejected') reason = 'unauthorized';
  return new MessagingError(`twilio: ${code ?? status} ${text}`, {
    provider: 'twilio',
    reason,
    providerCode: code,
    status,
    retryable: reason === 'rate_limited' || reason === 'unavailable',
  });
}
