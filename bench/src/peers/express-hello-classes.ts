/**
 * The same Express 5 hello-world served the way the reference server serves its app: requests and
 * responses constructed with the app's prototypes (packages/server/src/http/node-server.ts), so
 * Express's per-request prototype switch has nothing to change. Reported beside the plain one, to
 * show how much of the floor that switch is.
 */
import express from 'express';
import { createAppServer } from '../../../packages/server/src/http/node-server.js';

const app = express();
const hello = { hello: 'world' };
app.all('/{*any}', (_req, res) => {
  res.json(hello);
});
createAppServer(app).listen(Number(process.env.PORT), '127.0.0.1');
