/**
 * The orders pipeline: parse JSON orders → drop invalid ones → enrich with
 * totals and region → route to one topic per region, and write the order's
 * status to a compacted topic keyed by order id; and keep the revenue per
 * region in a state store (`revenue-by-region`, changelogged, restored after a
 * restart), written to a compacted topic keyed by region; and join each order
 * with its customer from the customers table (re-keyed by customer id, which
 * repartitions the orders so both sides are co-partitioned).
 */
import { Branched, Grouped, Joined, Materialized, Serdes, StreamsBuilder, type Topology } from '../../src/index.js';
import type { Customer, CustomerOrder } from './customers.js';
import { enrich, isValidOrder, statusOf, type EnrichedOrder, type Order, type OrderStatus, type Region } from './model.js';
import type { OrdersTopics } from './topics.js';

/** Builds the pipeline's topology for the given topics. */
export function buildOrdersTopology(topics: OrdersTopics): Topology {
  const builder = new StreamsBuilder();
  const key = Serdes.String();
  const enriched = builder
    .stream<string, Order>(topics.input, { keySerde: key, valueSerde: Serdes.Json<Order>() })
    .filter((_id, order) => isValidOrder(order), 'validate-order')
    .mapValues((order) => enrich(order), 'enrich-order');

  const toRegion = (region: Region) =>
    Branched.withConsumer<string, EnrichedOrder>(
      (s) => s.to(topics.regions[region], { keySerde: key, valueSerde: Serdes.Json<EnrichedOrder>(), name: `to-${region}` }),
      region,
    );
  enriched
    .split('route-')
    .branch((_id, o) => o.region === 'eu', toRegion('eu'))
    .branch((_id, o) => o.region === 'na', toRegion('na'))
    .defaultBranch(toRegion('apac'));

  enriched
    .mapValues((o): OrderStatus => statusOf(o), 'order-status')
    .to(topics.status, { keySerde: key, valueSerde: Serdes.Json<OrderStatus>(), name: 'to-status' });

  enriched
    .groupBy((_id, o): string => o.region, { ...Grouped.with(key, Serdes.Json<EnrichedOrder>()), name: 'by-region' })
    .aggregate(() => 0, (_region, o, revenue) => revenue + o.total, { ...Materialized.as<string, number>('revenue-by-region'), keySerde: key, valueSerde: Serdes.Long() })
    .toStream()
    .to(topics.revenue, { keySerde: key, valueSerde: Serdes.Long(), name: 'to-revenue' });

  const customers = builder.table(topics.customers, { keySerde: key, valueSerde: Serdes.Json<Customer>() }, Materialized.as<string, Customer>('customers-store'));
  enriched
    .selectKey((_id, o) => o.customerId, 'by-customer')
    .join(
      customers,
      (o, c): CustomerOrder => ({ seq: o.seq, orderId: o.id, customerId: c.id, customerName: c.name, tier: c.tier, total: o.total }),
      { ...Joined.with(key, Serdes.Json<EnrichedOrder>(), Serdes.Json<Customer>()), name: 'with-customer' },
    )
    .to(topics.customerOrders, { keySerde: key, valueSerde: Serdes.Json<CustomerOrder>(), name: 'to-customer-orders' });

  return builder.build();
}
