// Regenerates test/fixtures/kafka-windowed-serdes.json with Kafka Streams' own windowed serializers:
//   jshell --class-path ~/.m2/repository/org/apache/kafka/kafka-streams/4.4.0/kafka-streams-4.4.0.jar:.kafka/4.4.0/libs/kafka-clients-4.4.0.jar:.kafka/4.4.0/libs/slf4j-api-2.0.16.jar \
//     scripts/java/windowed-serde-fixtures.jsh > test/fixtures/kafka-windowed-serdes.json
// (kafka-streams from Maven Central: mvn dependency:get -Dartifact=org.apache.kafka:kafka-streams:4.4.0)
import org.apache.kafka.common.serialization.*;
import org.apache.kafka.streams.kstream.*;
import org.apache.kafka.streams.kstream.internals.*;
String hex(byte[] b) { StringBuilder s = new StringBuilder("\""); for (byte x : b) s.append(String.format("%02x", x)); return s.append("\"").toString(); }
var rows = new java.util.ArrayList<String>();
var timeString = WindowedSerdes.timeWindowedSerdeFrom(String.class, 60000L);
var sessionString = WindowedSerdes.sessionWindowedSerdeFrom(String.class);
var timeLong = WindowedSerdes.timeWindowedSerdeFrom(Long.class, 1000L);
var sessionLong = WindowedSerdes.sessionWindowedSerdeFrom(Long.class);
for (String k : new String[] { "", "user-1", "grün" }) for (long start : new long[] { 0L, 1764547200000L }) {
  rows.add("    { \"kind\": \"time\", \"inner\": \"String\", \"windowSizeMs\": 60000, \"key\": \"" + k + "\", \"start\": " + start + ", \"end\": " + (start + 60000) + ", \"hex\": " + hex(timeString.serializer().serialize("t", new Windowed<>(k, new TimeWindow(start, start + 60000)))) + " }");
  rows.add("    { \"kind\": \"session\", \"inner\": \"String\", \"key\": \"" + k + "\", \"start\": " + start + ", \"end\": " + (start + 5000) + ", \"hex\": " + hex(sessionString.serializer().serialize("t", new Windowed<>(k, new SessionWindow(start, start + 5000)))) + " }");
}
for (long k : new long[] { 42L, -1L }) {
  rows.add("    { \"kind\": \"time\", \"inner\": \"Long\", \"windowSizeMs\": 1000, \"key\": " + k + ", \"start\": 3000, \"end\": 4000, \"hex\": " + hex(timeLong.serializer().serialize("t", new Windowed<>(k, new TimeWindow(3000, 4000)))) + " }");
  rows.add("    { \"kind\": \"session\", \"inner\": \"Long\", \"key\": " + k + ", \"start\": 3000, \"end\": 3000, \"hex\": " + hex(sessionLong.serializer().serialize("t", new Windowed<>(k, new SessionWindow(3000, 3000)))) + " }");
}
System.out.println("{\n  \"generatedBy\": \"scripts/java/windowed-serde-fixtures.jsh with kafka-streams 4.4.0\",\n  \"cases\": [\n" + String.join(",\n", rows) + "\n  ]\n}");
/exit
