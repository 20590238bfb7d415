import { useState } from 'preact/hooks';
import type { Api } from '../api.js';
import { handoffLink } from '../credentials.js';
import type { Translate } from '../i18n.js';
import { msLeft } from '../state.js';
import type { CheckoutError, Handoff } from '../types.js';
import { Countdown } from './countdown.js';
import { QrCode } from './qr-code.js';

interface Props {
  api: Api;
  sessionId: string;
  pageUrl: string;
  now: number;
  t: Translate;
}

/** "Continue on another device": a QR of a link that carries only a 60-second, single-use token. */
export function HandoffPanel({ api, sessionId, pageUrl, now, t }: Props) {
  const [handoff, setHandoff] = useState<Handoff | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<CheckoutError | null>(null);
  const start = () => {
    setBusy(true);
    setError(null);
    api.handoff(sessionId).then(setHandoff, setError).finally(() => setBusy(false));
  };
  if (!handoff) {
    return (
      <section>
        <button type="button" class="btn" onClick={start} disabled={busy} data-testid="handoff-start">{t('continueOther')}</button>
        {error && <p class="muted" role="alert">{error.message}</p>}
      </section>
    );
  }
  const link = handoffLink(pageUrl, handoff.handoff_token);
  const expired = msLeft(handoff.expires_at, now) === 0;
  return (
    <section class="qr" data-testid="handoff">
      {expired ? <p class="muted">{t('continueOther')}</p> : <QrCode data={link} label={t('continueOther')} />}
      {!expired && <p class="muted" style="text-align:center">{t('scanToContinue')} <Countdown until={handoff.expires_at} now={now} t={t} label="expiresIn" /></p>}
      <a class="sr" href={link} data-testid="handoff-link">{link}</a>
      <div class="row">
        <button type="button" class="btn" onClick={start} disabled={busy}>{t('newCode')}</button>
        <button type="button" class="btn" onClick={() => setHandoff(null)}>{t('hide')}</button>
      </div>
    </section>
  );
}
