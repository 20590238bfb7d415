import type { Translate } from '../i18n.js';
import type { CheckoutError } from '../types.js';

export function ErrorPanel({ error, onRetry, t }: { error: CheckoutError; onRetry: () => void; t: Translate }) {
  return (
    <section class="err" role="alert" data-testid="error">
      <p><strong>{t('error_title')}</strong></p>
      <p class="muted">{error.code === 'invalid_token' ? t('handoff_used') : error.message}</p>
      {error.requestId && <p class="muted">{error.requestId}</p>}
      {error.retryable && <button type="button" class="btn" onClick={onRetry}>{t('retry')}</button>}
    </section>
  );
}
