import type { AppApi } from '../app-api.js';
import { EventsPage } from '../activity/events-page.js';
import { LogsPage } from '../activity/logs-page.js';
import { IntentPage } from '../intents/intent-page.js';
import { IntentsPage } from '../intents/intents-page.js';
import { MoneyPage } from '../money/money-page.js';
import type { Route } from '../router.js';
import { WebhooksPage } from '../webhooks/webhooks-page.js';
import { TodayPage } from '../today/today-page.js';

/** The pages of one application in one mode; `key` remounts them when either changes. */
export function AppPages({ app, route }: { app: AppApi; route: Route }) {
  const key = `${app.appId}:${app.mode}`;
  if (route.page === 'intent' && route.id) return <IntentPage key={key} app={app} intentId={route.id} />;
  if (route.page === 'today') return <TodayPage key={key} app={app} />;
  if (route.page === 'money') return <MoneyPage key={key} app={app} />;
  if (route.page === 'webhooks') return <WebhooksPage key={key} app={app} />;
  if (route.page === 'events') return <EventsPage key={key} app={app} />;
  if (route.page === 'logs') return <LogsPage key={key} app={app} />;
  return <IntentsPage key={key} app={app} />;
}
