/**
 * Placeholder, written by hand until `pnpm gen` writes openapi-typescript output from
 * spec/openapi.yaml here: openapi-typescript 7.13 output for the event schemas of the spec, with
 * EventBase.data as `{ [key: string]: unknown }`. Do not edit once generated.
 */

export interface components {
    schemas: {
        /**
         * @description - `payment.pending`: the intent entered AWAITING_PAYMENT.
         *     - `payment.processing`: the intent entered PAYMENT_CONFIRMED (funds received; routing and settling).
         *     - `payment.completed`: the intent entered SETTLED (settlement confirmed for the merchant).
         *     - `payment.failed`: the intent entered FAILED or EXPIRED.
         *     - `payout.initiated` / `payout.completed` / `payout.failed`: a settlement was submitted / confirmed / failed.
         *     - `invoice.paid`: the intent entered CREDITED.
         *     - `invoice.overdue`: the intent expired without its requirement met.
         *     - `refund.created` / `refund.completed` / `refund.failed`: a refund was recorded / paid out / failed.
         *     - `webhook.test`: sent by an endpoint's test operation.
         * @enum {string}
         */
        WebhookEventType: "payment.pending" | "payment.processing" | "payment.completed" | "payment.failed" | "payout.initiated" | "payout.completed" | "payout.failed" | "invoice.paid" | "invoice.overdue" | "refund.created" | "refund.completed" | "refund.failed" | "webhook.test";
        EventBase: {
            /** @description Event identifier (`evt_…`); the same on every delivery attempt. */
            id: string;
            /** @constant */
            object: "event";
            type: components["schemas"]["WebhookEventType"];
            created_at: components["schemas"]["Timestamp"];
            livemode: boolean;
            data: { [key: string]: unknown };
        };
        /** @description A payment event's data: the funding intent's payment as the merchant sees it. */
        PaymentEventData: {
            /** @description The funding intent's id. */
            payment_id: string;
            /** @description The requirement amount. */
            amount: number;
            /** @description The requirement asset code. */
            currency: string;
            /** @description What settled (or will) to the destination; 0 before settlement. */
            settlement_amount: number;
            settlement_asset: string;
            /** @description The latest relevant Stellar transaction (payment or settlement). */
            stellar_txn_hash: string | null;
            metadata: components["schemas"]["Metadata"];
            funding_intent_id: string;
            status: components["schemas"]["FundingIntentStatus"];
            reference: string | null;
            amount_decimal: components["schemas"]["Amount"];
            settlement_amount_decimal: components["schemas"]["Amount"];
        };
        PayoutEventData: {
            settlement_id: string;
            funding_intent_id: string;
            amount: number;
            amount_decimal: components["schemas"]["Amount"];
            asset: string;
            destination_address: string;
            stellar_txn_hash: string | null;
            status: components["schemas"]["SettlementStatus"];
            failure: components["schemas"]["Failure"] | null;
            metadata: components["schemas"]["Metadata"];
        };
        RefundEventData: {
            refund_id: string;
            funding_intent_id: string;
            payment_id: string;
            amount: number;
            amount_decimal: components["schemas"]["Amount"];
            asset: string;
            reason: components["schemas"]["RefundReason"];
            status: components["schemas"]["RefundStatus"];
            destination_address: string | null;
            stellar_txn_hash: string | null;
            failure: components["schemas"]["Failure"] | null;
        };
        /** @description A payment event. */
        PaymentEvent: components["schemas"]["EventBase"] & {
            /** @enum {string} */
            type: "payment.pending" | "payment.processing" | "payment.completed" | "payment.failed";
            data: components["schemas"]["PaymentEventData"];
        };
        /** @description An invoice event (the intent as an invoice). */
        InvoiceEvent: components["schemas"]["EventBase"] & {
            /** @enum {string} */
            type: "invoice.paid" | "invoice.overdue";
            data: components["schemas"]["PaymentEventData"];
        };
        /** @description A payout (settlement) event. */
        PayoutEvent: components["schemas"]["EventBase"] & {
            /** @enum {string} */
            type: "payout.initiated" | "payout.completed" | "payout.failed";
            data: components["schemas"]["PayoutEventData"];
        };
        /** @description A refund event. */
        RefundEvent: components["schemas"]["EventBase"] & {
            /** @enum {string} */
            type: "refund.created" | "refund.completed" | "refund.failed";
            data: components["schemas"]["RefundEventData"];
        };
        /** @description The event sent by an endpoint's test operation. */
        TestEvent: components["schemas"]["EventBase"] & {
            /** @constant */
            type: "webhook.test";
            data: {
                webhook_endpoint_id: string;
                message: string;
            };
        };
        /** @description Any event, discriminated by `type`. */
        WebhookEvent: components["schemas"]["PaymentEvent"] | components["schemas"]["InvoiceEvent"] | components["schemas"]["PayoutEvent"] | components["schemas"]["RefundEvent"] | components["schemas"]["TestEvent"];
        /**
         * Format: date-time
         * @description ISO 8601 UTC with milliseconds.
         */
        Timestamp: string;
        /** @description Free-form key-value data of yours, returned as given (at most 50 keys, keys up to 40 characters, string values up to 500 characters). */
        Metadata: {
            [key: string]: string;
        };
        /**
         * @description - `CREATED`: recorded; its deposit account is being provisioned.
         *     - `AWAITING_PAYMENT`: the deposit account is active; nothing received yet.
         *     - `PARTIALLY_FUNDED`: payments received sum below the requirement.
         *     - `PAYMENT_DETECTED`: received at least the requirement; being verified.
         *     - `PAYMENT_CONFIRMED`: verified in a closed ledger (asset, amount, destination re-read).
         *     - `ROUTING`: converting a source asset into the destination asset.
         *     - `SETTLING`: paying the destination from the deposit account.
         *     - `SETTLED`: the settlement transfer is confirmed.
         *     - `CREDITED`: the application's ledger is credited (final, successful).
         *     - `FAILED`: routing or settlement failed; what was received is refundable.
         *     - `REFUND_PENDING`: the intent's whole received value is being returned.
         *     - `REFUNDED`: the intent's whole received value was returned.
         *     - `EXPIRED`: expired before its requirement was met (received funds are refundable).
         *     - `CANCELLED`: cancelled before anything was received.
         * @enum {string}
         */
        FundingIntentStatus: "CREATED" | "AWAITING_PAYMENT" | "PARTIALLY_FUNDED" | "PAYMENT_DETECTED" | "PAYMENT_CONFIRMED" | "ROUTING" | "SETTLING" | "SETTLED" | "CREDITED" | "FAILED" | "REFUND_PENDING" | "REFUNDED" | "EXPIRED" | "CANCELLED";
        /** @description An exact decimal amount with 7 fraction digits (Stellar precision), e.g. `25.0000000`. */
        Amount: string;
        /**
         * @description `PENDING` (created, not yet submitted), `SUBMITTED` (transfer submitted), `CONFIRMED` (transfer in a closed ledger), `FAILED`.
         * @enum {string}
         */
        SettlementStatus: "PENDING" | "SUBMITTED" | "CONFIRMED" | "FAILED";
        /** @description Why something failed. */
        Failure: {
            /** @description A stable machine code, e.g. `SETTLEMENT_FAILED`, `op_underfunded`. */
            code: string;
            message: string;
        };
        /**
         * @description - `UNDERPAYMENT`: the intent expired or was given up with less than required.
         *     - `OVERPAYMENT`: what was received above the requirement.
         *     - `WRONG_ASSET`: a payment in an asset (code and issuer) the intent does not take.
         *     - `EXPIRED_INTENT`: a payment after the intent expired, was cancelled or credited.
         *     - `DUPLICATE_PAYMENT`: a second full payment.
         *     - `SETTLEMENT_FAILED`: the settlement failed; the funds go back.
         *     - `ROUTE_REMAINDER`: source asset left over after a conversion.
         *     - `ROUTE_SURPLUS`: a conversion received above the requirement.
         *     - `MANUAL`: the merchant's decision; from the ledger balance when the payment was settled.
         * @enum {string}
         */
        RefundReason: "UNDERPAYMENT" | "OVERPAYMENT" | "WRONG_ASSET" | "EXPIRED_INTENT" | "DUPLICATE_PAYMENT" | "SETTLEMENT_FAILED" | "ROUTE_REMAINDER" | "ROUTE_SURPLUS" | "MANUAL";
        /**
         * @description A new refund is `PENDING`; the payout worker moves it to `PROCESSING`, then `COMPLETED` (paid, `transaction_hash` set) or `FAILED` (`failure` set).
         * @enum {string}
         */
        RefundStatus: "PENDING" | "PROCESSING" | "COMPLETED" | "FAILED";
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
