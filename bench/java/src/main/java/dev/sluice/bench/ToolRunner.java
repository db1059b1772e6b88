package dev.sluice.bench;

import java.util.Arrays;

/**
 * Runs Kafka's ProducerPerformance or ConsumerPerformance in this JVM and then reports the JVM's
 * peak RSS and CPU time. Usage: ToolRunner producer|consumer [tool arguments...]
 */
public final class ToolRunner {
    private ToolRunner() {}

    public static void main(String[] args) throws Exception {
        String[] rest = Arrays.copyOfRange(args, 1, args.length);
        switch (args[0]) {
            case "producer" -> org.apache.kafka.tools.ProducerPerformance.main(rest);
            case "consumer" -> org.apache.kafka.tools.ConsumerPerformance.main(rest);
            default -> throw new IllegalArgumentException("producer or consumer expected, got " + args[0]);
        }
        ProcessStats.printUsage();
        System.exit(0);
    }
}
