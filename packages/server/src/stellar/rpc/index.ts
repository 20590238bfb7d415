export { createRpcNetwork, RpcNetwork, RpcRequestError } from './network.js';
export { paymentRecords, toid, type RpcTransaction } from './records.js';
