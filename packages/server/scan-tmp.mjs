import { readFileSync } from 'node:fs';
import * as sdk from '@stellar/stellar-sdk';
const { xdr, scValToNative, Networks, TransactionBuilder, FeeBumpTransaction, Address, StrKey } = sdk;
console.log(typeof scValToNative, typeof Address, typeof sdk.Asset.prototype.contractId);
const corpus = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const recs = corpus.records ?? corpus;
const j = (x) => JSON.stringify(x, (k,v)=>typeof v==='bigint'?v.toString():v);
for (const r of recs) {
  const meta = xdr.TransactionMeta.fromXdr(r.resultMetaXdr, 'base64');
  let tx = TransactionBuilder.fromXDR(r.envelopeXdr, Networks.PUBLIC); if (tx instanceof FeeBumpTransaction) tx = tx.innerTransaction;
  const types = tx.operations.map(o=>o.type);
  if (meta.type !== 'v4') { console.log('meta', meta.type); continue; }
  meta.v4.operations.forEach((op, i) => {
    for (const e of op.events) {
      const body = e.body.v0;
      const topics = body.topics.map(t => { try { return scValToNative(t); } catch (err) { return '?'+err.message; } });
      const cid = e.contractId ? StrKey.encodeContract(Buffer.from(e.contractId.toBytes ? e.contractId.toBytes() : e.contractId)) : null;
      let data; try { data = scValToNative(body.data); } catch (err) { data = '?'+err.message; }
      console.log(r.txHash.slice(0,8), i, types[i], cid, j(topics), j(data));
    }
  });
}
