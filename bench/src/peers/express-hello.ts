/** The floor: a bare Express 5 hello-world answering every GET and POST with a small JSON. */
import express from 'express';

const app = express();
const hello = { hello: 'world' };
app.all('/{*any}', (_req, res) => {
  res.json(hello);
});
app.listen(Number(process.env.PORT), '127.0.0.1');
