/** Horizon's response conventions: indented HAL JSON, problem+json errors, SSE framing. */
import type { Request, Response } from 'express';

export function baseUrl(req: Request): string {
  return `${req.protocol}://${req.get('host')}${req.baseUrl}`;
}

export function sendHal(res: Response, body: unknown, status = 200): void {
  res.status(status)
    .set('Content-Type', 'application/hal+json; charset=utf-8')
    .set('Content-Disposition', 'inline')
    .send(JSON.stringify(body, null, 2));
}

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail?: string;
  extras?: Record<string, unknown>;
}

export function sendProblem(res: Response, p: Problem): void {
  const body: Problem = { ...p, type: `https://stellar.org/horizon-errors/${p.type}` };
  res.status(p.status).set('Content-Type', 'application/problem+json; charset=utf-8').send(JSON.stringify(body, null, 2));
}

export function notFound(res: Response): void {
  sendProblem(res, {
    type: 'not_found',
    title: 'Resource Missing',
    status: 404,
    detail:
      'The resource at the url requested was not found.  This usually occurs for one of two reasons:  The url requested is not valid, or no data in our database could be found with the parameters provided.',
  });
}

export function badRequest(res: Response, field: string, reason: string): void {
  sendProblem(res, {
    type: 'bad_request',
    title: 'Bad Request',
    status: 400,
    detail: 'The request you sent was invalid in some way',
    extras: { invalid_field: field, reason },
  });
}
