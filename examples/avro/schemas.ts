/**
 * The Avro schemas of the example: orders in two versions (v2 adds a field
 * with a default, a BACKWARD-compatible change the registry accepts) and the
 * order totals the app writes.
 */

/** An order as upstream producers wrote it first. */
export const ORDER_V1 = {
  type: 'record',
  name: 'Order',
  namespace: 'shop',
  fields: [
    { name: 'id', type: 'string' },
    { name: 'customer', type: 'string' },
    { name: 'qty', type: 'int' },
    { name: 'priceCents', type: 'long' },
  ],
} as const;

/** Version 2: a coupon code, `"none"` when absent (so v2 readers read v1 records). */
export const ORDER_V2 = {
  ...ORDER_V1,
  fields: [...ORDER_V1.fields, { name: 'coupon', type: 'string', default: 'none' }],
} as const;

/** What the app writes per order. */
export const ORDER_TOTAL = {
  type: 'record',
  name: 'OrderTotal',
  namespace: 'shop',
  fields: [
    { name: 'id', type: 'string' },
    { name: 'customer', type: 'string' },
    { name: 'totalCents', type: 'long' },
    { name: 'discounted', type: 'boolean' },
  ],
} as const;

/** An order (v2 shape: v1 records are read with `coupon: 'none'`). */
export interface Order {
  id: string;
  customer: string;
  qty: number;
  priceCents: number;
  coupon: string;
}

/** An order total. */
export interface OrderTotal {
  id: string;
  customer: string;
  totalCents: number;
  discounted: boolean;
}
