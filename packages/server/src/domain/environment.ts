/** `test` = sandbox (sk_test_/pk_test_ keys), `live` = production. Every room's vocabulary. */
export type Environment = 'test' | 'live';
