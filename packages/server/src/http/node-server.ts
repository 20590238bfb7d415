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
  // A Node whose constructors are classes (Node 20's are plain functions) cannot have
  // them called on an existing `this`: it gets Express's usual switch.
  if (/^class\b/.test(Function.prototype.toString.call(IncomingMessage))) return createServer(app);
  // Node's constructors are plain functions called with `new`; these call them on `this` so the
  // objects are built exactly as Node builds its own, with the app's prototypes from the start.
  // (Reflect.construct with the app's prototype as new.target builds the same objects, but V8 then
  // gives them slow shapes again: retrieve measured 0.42 ms of CPU against 0.19 ms this way.)
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
