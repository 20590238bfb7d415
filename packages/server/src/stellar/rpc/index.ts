export { createRpcNetwork, RpcNetwork, RpcRequestError } from './network.js';
export { paymentRecords, sacIndex, toid, type RpcTransaction, type SacIndex } from './records.js';
