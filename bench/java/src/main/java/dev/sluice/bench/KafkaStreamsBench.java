package dev.sluice.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;

/**
 * The benchmark pipeline on Java Kafka Streams, exactly_once_v2, default commit interval, one stream
 * thread (or {@code numStreamThreads}, the scaling workload): parse the JSON value, drop type "ping" (10%), enrich, write.
 * Usage: KafkaStreamsBench bootstrapServers applicationId inputTopic outputTopic [numStreamThreads]
 * Runs until SIGTERM; prints "BENCH {json}" lines (first record time, usage at exit).
 */
public final class KafkaStreamsBench {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String[] REGIONS = {"eu", "us", "apac", "latam"};

    private KafkaStreamsBench() {}

    /** The enrich/map step: the same fields as the TypeScript contenders produce. */
    static String enrich(JsonNode in) {
        String user = in.get("user").asText();
        double amount = in.get("amount").asDouble();
        ObjectNode out = JSON.createObjectNode();
        out.put("id", in.get("id").asLong());
        out.put("user", user);
        out.put("amount", amount);
        out.put("cents", Math.round(amount * 100));
        out.put("region", REGIONS[Integer.parseInt(user.substring(1)) % REGIONS.length]);
        out.put("pt", System.currentTimeMillis());
        return out.toString();
    }

    static JsonNode parse(String value) {
        try {
            return JSON.readTree(value);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    public static void main(String[] args) throws Exception {
        String bootstrap = args[0];
        String appId = args[1];
        String input = args[2];
        String output = args[3];
        int threads = args.length > 4 ? Integer.parseInt(args[4]) : 1;

        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, appId);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        props.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, threads);
        props.put(StreamsConfig.STATE_DIR_CONFIG, Files.createTempDirectory("sluice-bench-ks-").toString());

        AtomicBoolean first = new AtomicBoolean(false);
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(input, Consumed.with(Serdes.String(), Serdes.String()))
            .peek((k, v) -> {
                if (!first.get() && first.compareAndSet(false, true)) {
                    ProcessStats.print("first");
                }
            })
            .mapValues(KafkaStreamsBench::parse)
            .filter((k, v) -> !"ping".equals(v.get("type").asText()))
            .mapValues(KafkaStreamsBench::enrich)
            .to(output, Produced.with(Serdes.String(), Serdes.String()));

        KafkaStreams streams = new KafkaStreams(builder.build(), props);
        CountDownLatch closed = new CountDownLatch(1);
        streams.setStateListener((now, before) -> {
            if (now == KafkaStreams.State.RUNNING) {
                ProcessStats.print("running");
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
            // Leave the group on close so that the runner can delete it at once (the measurement is over).
            streams.close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
                .withTimeout(Duration.ofSeconds(30)));
            ProcessStats.printUsage();
            closed.countDown();
        }));
        streams.start();
        ProcessStats.print("started");
        closed.await();
    }
}
