import type { Environment } from './environment.js';

/** The application and environment acting: objects of others are invisible or forbidden. */
export interface Caller {
  applicationId: string;
  environment: Environment;
  /** the application's default destination as authentication cached it (create reads the current one) */
  settlementAddress?: string | null;
}
