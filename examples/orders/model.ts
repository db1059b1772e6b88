/**
 * The order model of the example: validation, enrichment, routing by region.
 */

/** One line of an order. */
export interface OrderItem {
  sku: string;
  qty: number;
  /** Unit price in cents. */
  price: number;
}

/** An order as it arrives on the input topic (JSON). */
export interface Order {
  /** The order id; `null` for the (poison) orders that lost theirs. */
  id: string | null;
  /** Position in the generated input (unique per run; survives a missing id). */
  seq: number;
  customerId: string;
  /** ISO country code. */
  country: string;
  items: OrderItem[];
  /** Free text; a few orders carry a huge one (poison: too large for a region topic). */
  note?: string;
  createdAt: number;
}

/** Sales regions; each has its own output topic. */
export type Region = 'eu' | 'na' | 'apac';

/** An order with computed fields. */
export interface EnrichedOrder extends Order {
  region: Region;
  itemCount: number;
  /** Sum of qty × price, in cents. */
  total: number;
}

/** The latest status of an order, on the compacted `order-status` topic keyed by order id. */
export interface OrderStatus {
  orderId: string | null;
  status: 'ACCEPTED';
  region: Region;
  total: number;
}

const REGIONS: Record<string, Region> = {
  DE: 'eu', FR: 'eu', NL: 'eu', ES: 'eu', IT: 'eu',
  US: 'na', CA: 'na', MX: 'na',
  JP: 'apac', AU: 'apac', SG: 'apac', IN: 'apac',
};

/** Countries the pipeline knows. */
export const COUNTRIES = Object.keys(REGIONS);

/** The region of a country, or undefined for an unknown country. */
export function regionOf(country: string): Region | undefined {
  return REGIONS[country];
}

/** An order is valid when it has items with positive integer quantities, non-negative prices and a known country. */
export function isValidOrder(order: Order | null | undefined): order is Order {
  if (!order || typeof order !== 'object' || !Array.isArray(order.items) || order.items.length === 0) return false;
  if (regionOf(order.country) === undefined) return false;
  return order.items.every((i) => Number.isInteger(i.qty) && i.qty > 0 && Number.isInteger(i.price) && i.price >= 0);
}

/** Adds region, item count and total. */
export function enrich(order: Order): EnrichedOrder {
  return {
    ...order,
    region: regionOf(order.country)!,
    itemCount: order.items.reduce((n, i) => n + i.qty, 0),
    total: order.items.reduce((sum, i) => sum + i.qty * i.price, 0),
  };
}

/** The status record of an enriched order. */
export function statusOf(order: EnrichedOrder): OrderStatus {
  return { orderId: order.id, status: 'ACCEPTED', region: order.region, total: order.total };
}
