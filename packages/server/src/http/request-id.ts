import type { NextFunction, Request, Response } from 'express';
import { newId } from '../lib/ids.js';
import { locals } from './context.js';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** Echoes a safe client X-Request-ID, else generates req_…; set before anything can fail. */
export function requestId(req: Request, res: Response, next: NextFunction): void {
  const sent = req.get('x-request-id');
  const id = sent && SAFE_REQUEST_ID.test(sent) ? sent : newId('request');
  locals(res).requestId = id;
  locals(res).startedAt = Date.now();
  res.setHeader('X-Request-ID', id);
  next();
}
