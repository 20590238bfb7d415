/**
 * A SAC call's failure, as the Soroban host reports it: an ScError (its type and code) and the
 * diagnostic message. stellar-rpc's simulateTransaction answers it as "HostError: Error(…)";
 * stellar-core fails the operation with INVOKE_HOST_FUNCTION_TRAPPED, or _RESOURCE_LIMIT_EXCEEDED
 * when the declared resources were short.
 */

/** The SAC's ContractError codes (soroban-env-host stellar_asset_contract). */
export const SAC_ERROR = {
  internal: 1, notSupported: 2, unauthorized: 4, authentication: 5, accountMissing: 6, notClassic: 7,
  negativeAmount: 8, balance: 10, overflow: 12, trustlineMissing: 13,
} as const;

export class SacError extends Error {
  constructor(
    /** ScErrorType: Contract (the SAC's own codes), Auth, Storage, Budget, Value, Context. */
    readonly type: 'Contract' | 'Auth' | 'Storage' | 'Budget' | 'Value' | 'Context',
    /** The contract's code (a number) or the host's ScErrorCode name. */
    readonly code: number | 'InvalidAction' | 'InvalidInput' | 'MissingValue' | 'ExceededLimit' | 'ExistingValue',
    message: string,
    /** Resources short of what was declared: _RESOURCE_LIMIT_EXCEEDED rather than _TRAPPED. */
    readonly resourceLimit = false,
  ) {
    super(message);
  }

  /** "Error(Contract, #10)", "Error(Auth, InvalidAction)". */
  get scError(): string {
    return `Error(${this.type}, ${typeof this.code === 'number' ? `#${this.code}` : this.code})`;
  }

  /** stellar-rpc's error string for a failed simulation (the host's error and its event log). */
  get hostError(): string {
    return `HostError: ${this.scError}\n\nEvent log (newest first):\n   0: [Diagnostic Event] topics:[error, ${this.scError}], data:${JSON.stringify(this.message)}\n`;
  }
}

export const contractError = (code: number, message: string) => new SacError('Contract', code, message);
