import { parseAllowedRanges } from './targets.js';

/** The operator's webhook settings (config.ts reads them with the rest of the environment). */
export interface WebhookSettings {
  /** FUNDKIT_WEBHOOK_ALLOW_PRIVATE: CIDR ranges deliveries may reach although not public */
  allowPrivate: string[];
  /** FUNDKIT_WEBHOOK_MAX_ENDPOINTS: live endpoints an application has at most, per environment */
  maxEndpoints: number;
  /** FUNDKIT_WEBHOOK_APPLICATION_IN_FLIGHT: attempts of one application's endpoints in flight at once on a server */
  inFlightPerApplication: number;
}

/** Invalid webhook settings; the message names the variable. */
export class WebhookSettingsError extends Error {}

type Env = Record<string, string | undefined>;

function count(env: Env, name: string, fallback: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > max) throw new WebhookSettingsError(`${name} must be an integer between 1 and ${max}, got "${raw}"`);
  return Number(raw);
}

export function webhookSettings(env: Env): WebhookSettings {
  let allowPrivate: string[];
  try {
    allowPrivate = parseAllowedRanges(env.FUNDKIT_WEBHOOK_ALLOW_PRIVATE);
  } catch (error) {
    throw new WebhookSettingsError(`FUNDKIT_WEBHOOK_ALLOW_PRIVATE: ${(error as Error).message}`);
  }
  return {
    allowPrivate,
    maxEndpoints: count(env, 'FUNDKIT_WEBHOOK_MAX_ENDPOINTS', 16, 10_000),
    // half the default pool of 16: one tenant's hanging receivers leave the other half to everyone else
    inFlightPerApplication: count(env, 'FUNDKIT_WEBHOOK_APPLICATION_IN_FLIGHT', 8, 10_000),
  };
}
