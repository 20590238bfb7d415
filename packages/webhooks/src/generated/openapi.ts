/**
 * Placeholder, written by hand until `pnpm gen` writes openapi-typescript output from
 * spec/openapi.yaml here. Same shape as that output; do not edit once generated.
 */

export interface components {
    schemas: {
        WebhookEvent: components["schemas"]["PaymentEvent"] | components["schemas"]["PayoutEvent"] | components["schemas"]["InvoiceEvent"] | components["schemas"]["RefundEvent"] | components["schemas"]["TestEvent"];
        PaymentEvent: {
            id: string;
            /** @enum {string} */
            object: "event";
            /** @enum {string} */
            type: "payment.pending" | "payment.processing" | "payment.completed" | "payment.failed";
            created_at: string;
            livemode: boolean;
            data: components["schemas"]["PaymentEventData"];
        };
        PayoutEvent: {
            id: string;
            /** @enum {string} */
            object: "event";
            /** @enum {string} */
            type: "payout.initiated" | "payout.completed" | "payout.failed";
            created_at: string;
            livemode: boolean;
            data: components["schemas"]["PayoutEventData"];
        };
        InvoiceEvent: {
            id: string;
            /** @enum {string} */
            object: "event";
            /** @enum {string} */
            type: "invoice.paid" | "invoice.overdue";
            created_at: string;
            livemode: boolean;
            data: components["schemas"]["PaymentEventData"];
        };
        RefundEvent: {
            id: string;
            /** @enum {string} */
            object: "event";
            /** @enum {string} */
            type: "refund.created" | "refund.completed" | "refund.failed";
            created_at: string;
            livemode: boolean;
            data: components["schemas"]["RefundEventData"];
        };
        TestEvent: {
            id: string;
            /** @enum {string} */
            object: "event";
            /** @enum {string} */
            type: "webhook.test";
            created_at: string;
            livemode: boolean;
            data: {
                message: string;
            };
        };
        PaymentEventData: {
            payment_id: string;
            amount: number;
            currency: string;
            settlement_amount: number;
            settlement_asset: string;
            stellar_txn_hash: string | null;
            metadata: {
                [key: string]: unknown;
            };
            funding_intent_id: string;
            status: string;
            reference: string | null;
            amount_decimal: string;
            settlement_amount_decimal: string;
        };
        PayoutEventData: {
            settlement_id: string;
            funding_intent_id: string;
            payment_id: string;
            amount: number;
            amount_decimal: string;
            asset: string;
            destination_address: string;
            stellar_txn_hash: string | null;
            status: string;
        };
        RefundEventData: {
            refund_id: string;
            funding_intent_id: string;
            payment_id: string;
            amount: number;
            amount_decimal: string;
            asset: string;
            reason: string;
            status: string;
            stellar_txn_hash: string | null;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
