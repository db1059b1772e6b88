// Kafka's own Java producer and consumer (kafka-clients 4.x) on compressed topics, for sluice's
// compression tests. Java 17 source launcher, with the broker's jars (kafka-clients, snappy-java,
// lz4-java, zstd-jni) on the class path:
//
//   java -cp '<libs>/*' scripts/java/CompressionProbe.java produce <bootstrap> <count> <topic>=<codec>[,...]
//       writes <count> records (see record(i)) to each topic with compression.type=<codec>; prints
//       "PRODUCED <topic> <codec> <count>" per topic.
//   java -cp '<libs>/*' scripts/java/CompressionProbe.java consume <bootstrap> <count> <timeoutMs> <topic>[,...]
//       reads every partition of each topic from the beginning (read_committed) until <count> records or
//       the timeout; prints "CONSUMED <topic> <records> <distinct keys> <sha256 of the sorted key\tvalue lines>".
//   java -cp '<libs>/*' scripts/java/CompressionProbe.java fixtures <count> <codec>[,...]
//       builds one record batch per codec as the producer does (MemoryRecordsBuilder, the class
//       ProducerBatch appends to) from records fixtureRecord(0..count-1); prints "FIXTURE <codec> <base64>".
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.*;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.record.internal.CompressionType;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

public class CompressionProbe {
    /** Record i of `produce`: key "k-<i>", a compressible value naming the codec. */
    static String value(String codec, int i) {
        return codec + "-value-" + i + "-" + "the quick brown fox jumps over the lazy dog ".repeat(3);
    }

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "produce" -> produce(args[1], Integer.parseInt(args[2]), args[3]);
            case "consume" -> consume(args[1], Integer.parseInt(args[2]), Long.parseLong(args[3]), args[4]);
            case "fixtures" -> fixtures(Integer.parseInt(args[1]), args[2]);
            default -> throw new IllegalArgumentException("unknown mode " + args[0]);
        }
    }

    static void produce(String bootstrap, int count, String topicCodecs) throws Exception {
        for (String pair : topicCodecs.split(",")) {
            String topic = pair.split("=")[0];
            String codec = pair.split("=")[1];
            Properties p = new Properties();
            p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
            p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, codec);
            p.put(ProducerConfig.ACKS_CONFIG, "all");
            p.put(ProducerConfig.LINGER_MS_CONFIG, "20");
            p.put(ProducerConfig.BATCH_SIZE_CONFIG, "131072");
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
                for (int i = 0; i < count; i++) producer.send(new ProducerRecord<>(topic, "k-" + i, value(codec, i)));
                producer.flush();
            }
            System.out.println("PRODUCED " + topic + " " + codec + " " + count);
        }
    }

    static void consume(String bootstrap, int count, long timeoutMs, String topics) throws Exception {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "5000");
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer())) {
            for (String topic : topics.split(",")) {
                List<TopicPartition> tps = new ArrayList<>();
                for (PartitionInfo info : consumer.partitionsFor(topic)) tps.add(new TopicPartition(topic, info.partition()));
                consumer.assign(tps);
                consumer.seekToBeginning(tps);
                List<String> lines = new ArrayList<>();
                Set<String> keys = new HashSet<>();
                long deadline = System.currentTimeMillis() + timeoutMs;
                while (lines.size() < count && System.currentTimeMillis() < deadline) {
                    for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                        lines.add(r.key() + "\t" + r.value());
                        keys.add(r.key());
                    }
                }
                Collections.sort(lines);
                MessageDigest sha = MessageDigest.getInstance("SHA-256");
                for (String line : lines) sha.update((line + "\n").getBytes(StandardCharsets.UTF_8));
                System.out.println("CONSUMED " + topic + " " + lines.size() + " " + keys.size() + " " + HexFormat.of().formatHex(sha.digest()));
            }
        }
    }

    /** Record i of a fixture: every 7th key null, every 5th record with a header, fixed timestamps. */
    static void fixtures(int count, String codecs) {
        for (String codec : codecs.split(",")) {
            ByteBuffer buffer = ByteBuffer.allocate(1 << 20);
            Compression compression = Compression.of(CompressionType.forName(codec)).build();
            MemoryRecordsBuilder builder = MemoryRecords.builder(buffer, compression, TimestampType.CREATE_TIME, 0L);
            for (int i = 0; i < count; i++) {
                byte[] key = i % 7 == 0 ? null : ("key-" + i).getBytes(StandardCharsets.UTF_8);
                byte[] value = ("value-" + i + "-" + "abcdefghij".repeat(8)).getBytes(StandardCharsets.UTF_8);
                Header[] headers = i % 5 == 0 ? new Header[] { new RecordHeader("h", ("" + i).getBytes(StandardCharsets.UTF_8)) } : new Header[0];
                builder.append(1_700_000_000_000L + i, key, value, headers);
            }
            ByteBuffer out = builder.build().buffer();
            byte[] bytes = new byte[out.remaining()];
            out.get(bytes);
            System.out.println("FIXTURE " + codec + " " + Base64.getEncoder().encodeToString(bytes));
        }
    }
}
