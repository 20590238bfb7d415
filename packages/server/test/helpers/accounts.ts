import { expect } from 'vitest';
import type { TestServer } from './server.js';

/**
 * A new dashboard account on `server`, signed up, verified through the link the server logs (it
 * has no mailer) and signed in: its session token.
 */
export async function signedIn(server: TestServer, email: string): Promise<string> {
  const password = 'correct-horse-battery';
  expect((await server.request('POST', '/v1/auth/sign-up', { body: { email, password } })).status).toBe(201);
  const line = server.logs.find((l) => l.email === email && typeof l.verify_url === 'string');
  const token = new URL(String(line!.verify_url)).searchParams.get('token');
  expect((await server.request('POST', '/v1/auth/verify-email', { body: { token } })).status).toBe(200);
  return (await server.request('POST', '/v1/auth/sign-in', { body: { email, password } })).body.token;
}
