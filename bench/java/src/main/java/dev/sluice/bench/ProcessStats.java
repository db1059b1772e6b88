package dev.sluice.bench;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/** Peak RSS and CPU time of this JVM, printed as one "BENCH {json}" line for the TypeScript runner. */
final class ProcessStats {
    private ProcessStats() {}

    /** Peak resident set size in KiB (VmHWM of /proc/self/status), -1 when unknown. */
    static long peakRssKb() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (Exception e) {
            // not Linux
        }
        return -1;
    }

    /** CPU time (user + system) of this process in seconds. */
    static double cpuSeconds() {
        var os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
            return sun.getProcessCpuTime() / 1e9;
        }
        return -1;
    }

    static void print(String event) {
        System.out.println("BENCH {\"event\":\"" + event + "\",\"t\":" + System.currentTimeMillis() + "}");
        System.out.flush();
    }

    static void printUsage() {
        System.out.println("BENCH {\"event\":\"usage\",\"maxRssKb\":" + peakRssKb() + ",\"cpuSeconds\":" + cpuSeconds() + "}");
        System.out.flush();
    }
}
