// Meta's WhatsApp Cloud API: the code goes out in an approved authentication template with a
// copy-code button. WhatsApp only; it cannot send SMS.
import type { Config } from '../../config.js';
import { ConfigError } from '../../lib/env-settings.js';
import { isRecord } from '../http-answers.js';
import { type HttpDriverDeps, type ProviderAnswer, postWithRetry } from './http.js';
import { type MessagingDriver, MessagingError, type MessagingFailure } from './types.js';

type WhatsappCloudSettings = Config['whatsappCloud'];

/** Graph API error codes worth naming; anything else is a plain rejection. */
const FAILURES: Record<number, MessagingFailure> = {
  190: 'unauthorized', // access token expired or invalid
  10: 'unauthorized', // permission denied
  200: 'unauthorized',
  131030: 'unverified_recipient', // test number: recipient not in the allowed list
  131026: 'invalid_recipient', // message undeliverable (no WhatsApp account, old client)
  131047: 'outside_session',
  4: 'rate_limited',
  80007: 'rate_limited',
  130429: 'rate_limited',
  131048: 'rate_limited',
  131056: 'rate_limited',
  132000: 'template',
  132001: 'template',
  132005: 'template',
  132007: 'template',
  132012: 'template',
  132015: 'template',
  132016: 'template',
  1: 'unavailable',
  2: 'unavailable',
  131000: 'unavailable',
};

export function createWhatsappCloudDriver(
  settings: WhatsappCloudSettings,
  deps: HttpDriverDeps,
): MessagingDriver {
  const { token, phoneNumberId } = settings;
  if (!token) throw new ConfigError('WHATSAPP_CLOUD_TOKEN is required when WHATSAPP_DRIVER=whatsapp-cloud');
  if (!phoneNumberId) {
    throw new ConfigError('WHATSAPP_CLOUD_PHONE_NUMBER_ID is required when WHATSAPP_DRIVER=whatsapp-cloud');
  }
  const version = settings.apiVersion.startsWith('v') ? settings.apiVersion : `v${settings.apiVersion}`;
  const url = `${settings.baseUrl}/${version}/${encodeURIComponent(phoneNumberId)}/messages`;

  return {
    name: 'whatsapp-cloud',
    channels: ['whatsapp'],
    async send(message) {
      if (message.channel !== 'whatsapp') {
        throw new ConfigError('the whatsapp-cloud driver sends WhatsApp only, not SMS');
      }
      // No per-message time-to-live here: Meta documents it for template messages as a property of
      // the template (`message_send_ttl_seconds`, 30-900 s for authentication templates, default
      // 600 s), set when the template is created or edited. A per-message `ttl_seconds` exists only
      // in the Direct Send beta, for non-template messages. The template used here must therefore be
      // created with a TTL no longer than OTP_TTL_SECONDS.
      // The English template when one is configured; otherwise the French one, whatever the language.
      const english =
        message.locale === 'en' &&
        (settings.templateNameEn !== undefined || settings.templateLanguageEn !== undefined);
      const payload = {
        messaging_product: 'whatsapp',
        to: message.to.replace(/^\+/, ''),
        type: 'template',
        template: {
          name: (english && settings.templateNameEn) || settings.templateName,
          language: { code: english ? (settings.templateLanguageEn ?? 'en') : settings.templateLanguage },
          // The code appears twice: once in the body text, once behind the copy-code button.
          components: [
            { type: 'body', parameters: [{ type: 'text', text: message.code }] },
            {
              type: 'button',
              sub_type: 'url',
              index: '0',
              parameters: [{ type: 'text', text: message.code }],
            },
          ],
        },
      };
      const body = await postWithRetry({
        ...deps,
        provider: 'whatsapp-cloud',
        url,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json',
        },
        body: JSON.stringify(payload),
        toError: toMessagingError,
      });
      deps.logger.debug({ provider: 'whatsapp-cloud', id: messageId(body) }, 'code message accepted');
    },
  };
}

/** Success is `{"messages":[{"id"}],"contacts":[{"wa_id"}]}`. */
function messageId(body: unknown): unknown {
  const messages = isRecord(body) ? body.messages : undefined;
  const first = Array.isArray(messages) ? messages[0] : undefined;
  return isRecord(first) ? first.id : undefined;
}

/** Meta answers errors as `{"error":{message,type,code,error_subcode,fbtrace_id}}`. */
function toMessagingError({ status, body }: ProviderAnswer): MessagingError {
  const error = isRecord(body) && isRecord(body.error) ? body.error : {};
  const code = typeof error.code === 'number' ? error.code : undefined;
  const text = typeof error.message === 'string' ? error.message : `HTTP ${status}`;
  const trace = typeof error.fbtrace_id === 'string' ? ` [fbtrace_id ${error.fbtrace_id}]` : '';
  let reason: MessagingFailure = (code !== undefined ? FAILURES[code] : undefined) ?? 'rejected';
  if (status === 429) reason = 'rate_limited';
  else if (status >= 500) reason = 'unavailable';
  else if (status === 401 && reason === 'rejected') reason = 'unauthorized';
  return new MessagingError(`whatsapp-cloud: ${code ?? status} ${text}${trace}`, {
    provider: 'whatsapp-cloud',
    reason,
    providerCode: code,
    status,
    retryable: reason === 'rate_limited' || reason === 'unavailable',
  });
}
