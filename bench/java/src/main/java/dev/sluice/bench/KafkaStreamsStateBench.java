package dev.sluice.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Suppressed;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.kstream.WindowedSerdes;
import org.apache.kafka.streams.processor.StateRestoreListener;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.Stores;

/**
 * The stateful benchmark workloads on Java Kafka Streams (issue #15), exactly_once_v2, every other
 * setting default (RocksDB stores, record cache 10 MiB, commit interval 100 ms, one stream thread).
 * <ul>
 *   <li>{@code count}: stream(input).groupByKey().count().toStream().to(output, Long serde);</li>
 *   <li>{@code restore}: stream(input).groupByKey().reduce((old, v) -> v) into the store
 *       {@code restore-store}, whose changelog the runner filled beforehand; with a fresh state
 *       directory the instance restores all of it. A StateRestoreListener reports every partition's
 *       start and end; once RUNNING the store is read back (entries and the sample keys' values).</li>
 *   <li>{@code windowed}: stream(input).groupByKey().windowedBy(TimeWindows.ofSizeWithNoGrace(1 min)).count()
 *       .suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded())).toStream()
 *       .to(output, WindowedSerdes.timeWindowedSerdeFrom(String, 1 min), Long serde) (issue 17;
 *       bench/lib/windowed-workload.ts): every closed window's final count, once.</li>
 *   <li>{@code versioned-join}: stream(input).join(table(applicationId + "-prices",
 *       Materialized.as(Stores.persistentVersionedKeyValueStore("prices-versioned", 1 h))),
 *       (value, price) -> price + "|" + value).to(output) (issue 30; bench/lib/versioned-join-workload.ts):
 *       each record joins the price valid at its timestamp.</li>
 * </ul>
 * Usage: KafkaStreamsStateBench count|restore|windowed|versioned-join bootstrapServers applicationId inputTopic output|sampleKeys stateDir
 * Runs until SIGTERM; prints "BENCH {json}" lines.
 */
public final class KafkaStreamsStateBench {
    static final String RESTORE_STORE = "restore-store";
    /** The windowed workload's window size (bench/lib/windowed-workload.ts WINDOW_MS). */
    static final Duration WINDOW = Duration.ofMinutes(1);
    /** The versioned-join workload's store and history retention (bench/lib/versioned-join-workload.ts). */
    static final String PRICES_STORE = "prices-versioned";
    static final Duration PRICES_RETENTION = Duration.ofHours(1);
    private static final ObjectMapper JSON = new ObjectMapper();

    private KafkaStreamsStateBench() {}

    static synchronized void emit(ObjectNode event) {
        event.put("t", System.currentTimeMillis());
        System.out.println("BENCH " + event);
        System.out.flush();
    }

    static ObjectNode event(String name) {
        ObjectNode e = JSON.createObjectNode();
        e.put("event", name);
        return e;
    }

    /** The restore listener: one BENCH line per partition's start and end (batches are summed, not printed). */
    static final class Listener implements StateRestoreListener {
        @Override
        public void onRestoreStart(TopicPartition tp, String store, long start, long end) {
            ObjectNode e = event("restore-start");
            e.put("partition", tp.partition()).put("store", store).put("start", start).put("end", end);
            emit(e);
        }

        @Override
        public void onBatchRestored(TopicPartition tp, String store, long batchEndOffset, long numRestored) {}

        @Override
        public void onRestoreEnd(TopicPartition tp, String store, long totalRestored) {
            ObjectNode e = event("restore-end");
            e.put("partition", tp.partition()).put("store", store).put("totalRestored", totalRestored);
            emit(e);
        }
    }

    /** Reads the restored store back: exact entry count (full scan) and the sample keys' values. */
    static void reportStore(KafkaStreams streams, String[] samples) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 120_000;
        while (true) {
            try {
                ReadOnlyKeyValueStore<String, String> store = streams.store(
                    StoreQueryParameters.fromNameAndType(RESTORE_STORE, QueryableStoreTypes.keyValueStore()));
                long entries = 0;
                try (KeyValueIterator<String, String> it = store.all()) {
                    while (it.hasNext()) {
                        it.next();
                        entries++;
                    }
                }
                ObjectNode e = event("store");
                e.put("entries", entries);
                ObjectNode values = e.putObject("samples");
                for (String k : samples) {
                    if (!k.isEmpty()) values.put(k, store.get(k));
                }
                emit(e);
                return;
            } catch (RuntimeException notYet) {
                if (System.currentTimeMillis() > deadline) {
                    ObjectNode e = event("error");
                    e.put("message", "the restored store could not be read: " + notYet);
                    emit(e);
                    return;
                }
                Thread.sleep(100);
            }
        }
    }

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        String bootstrap = args[1];
        String appId = args[2];
        String input = args[3];
        String last = args[4];
        String stateDir = args[5];

        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, appId);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir);

        AtomicBoolean first = new AtomicBoolean(false);
        StreamsBuilder builder = new StreamsBuilder();
        KStream<String, String> stream = builder.stream(input, Consumed.with(Serdes.String(), Serdes.String()))
            .peek((k, v) -> {
                if (!first.get() && first.compareAndSet(false, true)) {
                    ProcessStats.print("first");
                }
            });
        if (mode.equals("versioned-join")) {
            KTable<String, String> prices = builder.table(appId + "-prices", Consumed.with(Serdes.String(), Serdes.String()),
                Materialized.<String, String>as(Stores.persistentVersionedKeyValueStore(PRICES_STORE, PRICES_RETENTION))
                    .withKeySerde(Serdes.String()).withValueSerde(Serdes.String()));
            stream.join(prices, (value, price) -> price + "|" + value).to(last, Produced.with(Serdes.String(), Serdes.String()));
        }
        var grouped = stream.groupByKey(Grouped.with(Serdes.String(), Serdes.String()));
        if (mode.equals("versioned-join")) {
            // built above
        } else if (mode.equals("count")) {
            grouped.count().toStream().to(last, Produced.with(Serdes.String(), Serdes.Long()));
        } else if (mode.equals("windowed")) {
            grouped.windowedBy(TimeWindows.ofSizeWithNoGrace(WINDOW))
                .count()
                .suppress(Suppressed.untilWindowCloses(Suppressed.BufferConfig.unbounded()))
                .toStream()
                .to(last, Produced.with(WindowedSerdes.timeWindowedSerdeFrom(String.class, WINDOW.toMillis()), Serdes.Long()));
        } else if (mode.equals("restore")) {
            grouped.reduce((old, v) -> v, Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as(RESTORE_STORE)
                .withKeySerde(Serdes.String()).withValueSerde(Serdes.String()));
        } else {
            throw new IllegalArgumentException("mode must be count, restore, windowed or versioned-join, got " + mode);
        }

        KafkaStreams streams = new KafkaStreams(builder.build(), props);
        if (mode.equals("restore")) {
            streams.setGlobalStateRestoreListener(new Listener());
        }
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch closed = new CountDownLatch(1);
        streams.setStateListener((now, before) -> {
            if (now == KafkaStreams.State.RUNNING) {
                ProcessStats.print("running");
                running.countDown();
            }
        });
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            double commits = 0;
            for (var e : streams.metrics().entrySet()) {
                if (e.getKey().name().equals("commit-total") && e.getKey().group().equals("stream-thread-metrics")) {
                    commits += ((Number) e.getValue().metricValue()).doubleValue();
                }
            }
            System.out.println("BENCH {\"event\":\"metrics\",\"metrics\":{\"commits\":" + (long) commits + "}}");
            streams.close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
                .withTimeout(Duration.ofSeconds(30)));
            ProcessStats.printUsage();
            closed.countDown();
        }));
        streams.start();
        ProcessStats.print("started");
        if (mode.equals("restore")) {
            running.await();
            reportStore(streams, last.equals("-") ? new String[0] : last.split(","));
        }
        closed.await();
    }
}
