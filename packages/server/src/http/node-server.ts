/**
 * The HTTP server an Express app listens on, with requests and responses born with the app's
 * prototypes.
 *
 * Express's `app.handle` switches every request's and response's prototype to `app.request` and
 * `app.response` (`Object.setPrototypeOf`). V8 then gives both objects new, slow shapes, and every
 * property access on them afterwards pays for it: in a profile that switch and its consequences were
 * most of Express's own cost, 0.15 → 0.055 ms of CPU a request for a hello-world
 * (bench/RESULTS.md has both). Node lets the server construct requests and responses of our own
 * classes; when their prototype already is the app's, the switch finds nothing to change and the
 * objects keep their shapes. Behaviour is Express's: the same prototypes, the same methods.
 */
import { createServer, IncomingMessage, ServerResponse, type Server } from 'node:http';
import type { Express } from 'express';

export function createAppServer(app: Express): Server {
  // Node's constructors are plain functions called with `new`; these call them on `this` so the
  // objects are built exactly as Node builds its own, with the app's prototypes from the start.
  function AppRequest(this: IncomingMessage, ...args: ConstructorParameters<typeof IncomingMessage>) {
    IncomingMessage.apply(this, args);
  }
  AppRequest.prototype = app.request;
  function AppResponse(this: ServerResponse, ...args: ConstructorParameters<typeof ServerResponse>) {
    ServerResponse.apply(this, args);
  }
  AppResponse.prototype = app.response;
  return createServer({
    IncomingMessage: AppRequest as unknown as typeof IncomingMessage,
    ServerResponse: AppResponse as unknown as typeof ServerResponse,
  }, app);
}
