import { randomUUID } from 'node:crypto';

/** The shop's own data. In memory: a real shop keeps orders in its database. */
export class Orders {
  #byId = new Map();
  /** event ids already handled: deliveries are at-least-once, so a replay must change nothing */
  #seenEvents = new Set();

  create(item, amount) {
    const order = { id: `order_${randomUUID().slice(0, 8)}`, item, amount, asset: 'USDC', status: 'pending', fundingIntentId: null, paidAt: null };
    this.#byId.set(order.id, order);
    return order;
  }

  get(id) {
    return this.#byId.get(id);
  }

  byIntent(fundingIntentId) {
    return [...this.#byId.values()].find((o) => o.fundingIntentId === fundingIntentId);
  }

  /** Marks the order of a verified payment.completed paid; false when it was seen before. */
  markPaid(event) {
    if (this.#seenEvents.has(event.id)) return false;
    this.#seenEvents.add(event.id);
    const order = this.byIntent(event.data.funding_intent_id);
    if (!order) return false;
    order.status = 'paid';
    order.paidAt = event.created_at;
    return true;
  }
}
