// How sign-in codes reach phones: the SMS and WhatsApp drivers, and the settings of Twilio and of
// WhatsApp Cloud.
import { type Static, Type } from 'typebox';
import { messagingDrivers, smsDrivers } from '../lib/allowed-values.js';
import { ConfigError, choice, httpUrl, optionalText, text } from '../lib/env-settings.js';
import { requireSet } from './common.js';
import type { ProcessConfig } from './process.js';

export const MessagingSettings = Type.Object({
  // Typed as any messaging driver: the messenger refuses at creation one that sends no SMS.
  messagingDriver: choice('MESSAGING_DRIVER', smsDrivers, { default: 'log', typedAs: messagingDrivers }),
  whatsappDriver: choice('WHATSAPP_DRIVER', messagingDrivers, {
    defaultFrom: (earlier) => earlier('MESSAGING_DRIVER') as (typeof smsDrivers)[number],
  }),
  twilio: Type.Object({
    baseUrl: httpUrl('TWILIO_BASE_URL', { default: 'https://api.twilio.com' }),
    accountSid: optionalText('TWILIO_ACCOUNT_SID'),
    authToken: optionalText('TWILIO_AUTH_TOKEN'),
    smsFrom: optionalText('TWILIO_SMS_FROM'),
    messagingServiceSid: optionalText('TWILIO_MESSAGING_SERVICE_SID'),
    whatsappFrom: optionalText('TWILIO_WHATSAPP_FROM'),
    whatsappContentSid: optionalText('TWILIO_WHATSAPP_CONTENT_SID'),
    /** The English code template; unset, English requests get the French one. */
    whatsappContentSidEn: optionalText('TWILIO_WHATSAPP_CONTENT_SID_EN'),
  }),
  whatsappCloud: Type.Object({
    baseUrl: httpUrl('WHATSAPP_CLOUD_BASE_URL', { default: 'https://graph.facebook.com' }),
    apiVersion: text('WHATSAPP_CLOUD_API_VERSION', { default: 'v21.0' }),
    token: optionalText('WHATSAPP_CLOUD_TOKEN'),
    phoneNumberId: optionalText('WHATSAPP_CLOUD_PHONE_NUMBER_ID'),
    templateName: text('WHATSAPP_CLOUD_TEMPLATE', { default: 'code_verification' }),
    templateLanguage: text('WHATSAPP_CLOUD_TEMPLATE_LANGUAGE', { default: 'fr' }),
    /**
     * The English code template: its name (unset: WHATSAPP_CLOUD_TEMPLATE's, for a template approved
     * in both languages) and its language code (Meta's, e.g. `en` or `en_US`; `en` when only the
     * name is set). Both unset, English requests get the French template.
     */
    templateNameEn: optionalText('WHATSAPP_CLOUD_TEMPLATE_NAME_EN'),
    templateLanguageEn: optionalText('WHATSAPP_CLOUD_TEMPLATE_LANGUAGE_EN'),
  }),
});
export type MessagingConfig = Static<typeof MessagingSettings>;

/** The log driver sends nothing: a production start with it would sign no one in. */
export function refuseLogMessagingInProduction(
  config: MessagingConfig & Pick<ProcessConfig, 'appEnv'>,
): void {
  if (
    config.appEnv === 'production' &&
    (config.messagingDriver === 'log' || config.whatsappDriver === 'log')
  ) {
    throw new ConfigError(
      'MESSAGING_DRIVER/WHATSAPP_DRIVER=log is for development: APP_ENV=production needs twilio or whatsapp-cloud',
    );
  }
}

/** A driver chosen without the settings it needs is a start error, not a failure at the first send. */
export function requireTwilioSettings(config: MessagingConfig): void {
  const { twilio } = config;
  if (config.messagingDriver === 'twilio' || config.whatsappDriver === 'twilio') {
    requireSet('the twilio driver is used', {
      TWILIO_ACCOUNT_SID: twilio.accountSid,
      TWILIO_AUTH_TOKEN: twilio.authToken,
    });
    if (config.messagingDriver === 'twilio' && !twilio.smsFrom && !twilio.messagingServiceSid) {
      throw new ConfigError('TWILIO_SMS_FROM or TWILIO_MESSAGING_SERVICE_SID is required for twilio SMS');
    }
  }
  if (config.whatsappDriver === 'twilio') {
    requireSet('WHATSAPP_DRIVER=twilio is used', {
      TWILIO_WHATSAPP_FROM: twilio.whatsappFrom,
      TWILIO_WHATSAPP_CONTENT_SID: twilio.whatsappContentSid,
    });
  }
}

export function requireWhatsappCloudSettings(config: MessagingConfig): void {
  const { whatsappCloud } = config;
  if (config.whatsappDriver === 'whatsapp-cloud') {
    requireSet('WHATSAPP_DRIVER=whatsapp-cloud is used', {
      WHATSAPP_CLOUD_TOKEN: whatsappCloud.token,
      WHATSAPP_CLOUD_PHONE_NUMBER_ID: whatsappCloud.phoneNumberId,
    });
  }
}
