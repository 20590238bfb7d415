import { describe, expect, it } from 'vitest';
import { checkResponse } from '../src/spec/contract.js';
import { loadSpec } from '../src/spec/operations.js';
import { SpecValidator } from '../src/spec/validator.js';
import { flagsToEnv } from '../src/cli/flags.js';

const spec = loadSpec();
const validator = new SpecValidator(spec);
const headers = { 'x-request-id': 'req_1', 'content-type': 'application/json' };
const error404 = { error: { code: 'NOT_FOUND', message: 'x', requestId: 'req_1', retryable: false } };

describe('the contract check catches what it must', () => {
  it('accepts a documented error', () => {
    expect(checkResponse(spec, validator, { method: 'GET', path: '/v1/funding-intents/fi_1', status: 404, headers, body: error404 })).toEqual([]);
  });

  it('matches both funding-intent spellings', () => {
    expect(checkResponse(spec, validator, { method: 'GET', path: '/v1/funding_intents/fi_1', status: 404, headers, body: error404 })).toEqual([]);
  });

  it('an undocumented status', () => {
    expect(checkResponse(spec, validator, { method: 'GET', path: '/v1/assets', status: 418, headers, body: error404 })[0]).toMatch(/418 is not documented/);
  });

  it('a missing X-Request-ID', () => {
    expect(checkResponse(spec, validator, { method: 'GET', path: '/v1/assets', status: 404, headers: { 'content-type': 'application/json' }, body: error404 })).toEqual(['missing X-Request-ID']);
  });

  it('a missing Retry-After on 429', () => {
    const body = { error: { code: 'RATE_LIMITED', message: 'x', requestId: 'req_1', retryable: true } };
    expect(checkResponse(spec, validator, { method: 'GET', path: '/v1/assets', status: 429, headers, body })).toEqual(['missing required header Retry-After']);
  });

  it('a body off the schema (extra field, wrong code for the status)', () => {
    const extra = { error: { ...error404.error, stack: 'at x.js:1' } };
    expect(checkResponse(spec, validator, { method: 'GET', path: '/v1/assets', status: 400, headers, body: extra }).length).toBeGreaterThan(0);
  });

  it('a path with no operation must be a 404 envelope', () => {
    expect(checkResponse(spec, validator, { method: 'GET', path: '/v1/nope', status: 200, headers, body: {} })[0]).toMatch(/no operation/);
  });
});

describe('flags mirror the environment', () => {
  it('maps --name value and --name=value', () => {
    expect(flagsToEnv(['--port', '5000', '--stellar=testnet'])).toEqual({ PORT: '5000', FUNDKIT_STELLAR: 'testnet' });
    expect(() => flagsToEnv(['--colour', 'red'])).toThrow(/unknown flag --colour/);
  });
});
